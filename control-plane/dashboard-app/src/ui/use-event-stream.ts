/**
 * Follows a Server-Sent Events stream of the dashboard API (`event: deployment` messages) while
 * the page is shown. EventSource reconnects by itself after a dropped connection; when the
 * server refuses the stream (an error status, which ends EventSource for good) or the tab comes
 * back from being hidden, it opens a new one after a pause growing from 1 s to 30 s. The server
 * sends the current state first on every connection, so nothing missed while disconnected is lost.
 */
import { useEffect, useRef } from 'preact/hooks';
import { API_BASE } from '../api.ts';

/** Calls `onEvent` with each `event: deployment` message's data from `path` (below the API base); null `path` follows nothing. */
export function useEventStream<T>(path: string | null, onEvent: (data: T) => void): void {
  const handler = useRef(onEvent);
  handler.current = onEvent;
  useEffect(() => {
    if (!path) return;
    let source: EventSource | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let delay = 1000;
    let stopped = false;
    const open = () => {
      timer = undefined;
      if (stopped) return;
      source = new EventSource(`${API_BASE}${path}`);
      source.addEventListener('open', () => { delay = 1000; });
      source.addEventListener('deployment', (e) => {
        try { handler.current(JSON.parse((e as MessageEvent<string>).data) as T); } catch { /* a malformed message is skipped */ }
      });
      source.addEventListener('error', () => {
        // CONNECTING: EventSource retries by itself. CLOSED: it gave up; try again later.
        if (source?.readyState !== EventSource.CLOSED) return;
        source = undefined;
        if (!timer && !stopped) timer = setTimeout(open, delay);
        delay = Math.min(delay * 2, 30_000);
      });
    };
    const onVisible = () => {
      if (document.visibilityState === 'visible' && !source && !timer) open();
    };
    open();
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      source?.close();
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [path]);
}
