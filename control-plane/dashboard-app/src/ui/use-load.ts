/** Loads data for a page and keeps it with its error, re-loading on demand. */
import { useCallback, useEffect, useState } from 'preact/hooks';
import { ApiError } from '../api.ts';

export interface Loaded<T> {
  data: T | undefined;
  error: ApiError | undefined;
  loading: boolean;
  reload(): Promise<void>;
}

/** Calls `fn` now and whenever `deps` change; `reload()` calls it again keeping the old data shown. */
export function useLoad<T>(fn: () => Promise<T>, deps: unknown[]): Loaded<T> {
  const [data, setData] = useState<T>();
  const [error, setError] = useState<ApiError>();
  const [loading, setLoading] = useState(true);
  const run = useCallback(fn, deps);
  const reload = useCallback(async () => {
    setLoading(true);
    try {
      setData(await run());
      setError(undefined);
    } catch (err) {
      setError(err instanceof ApiError ? err : new ApiError(0, 'client_error', String(err)));
    } finally {
      setLoading(false);
    }
  }, [run]);
  useEffect(() => {
    void reload();
  }, [reload]);
  return { data, error, loading, reload };
}
