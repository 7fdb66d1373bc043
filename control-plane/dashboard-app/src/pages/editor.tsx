/**
 * The web editor's page (`/projects/:id/editor`, `/projects/:id/editor/<file path>`). The editor
 * and its libraries (CodeMirror, the preview) load when the page is first opened, so the rest of
 * the dashboard does not carry them.
 */
import type { FunctionComponent } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { ErrorNotice, Loading } from '../ui/notice.tsx';
import { ApiError } from '../api.ts';

type Page = FunctionComponent<{ id: string; path?: string }>;
let loaded: Page | undefined;

export function EditorPage({ id, path }: { id: string; path?: string }) {
  const [Editor, setEditor] = useState<Page | undefined>(() => loaded);
  const [error, setError] = useState<ApiError>();
  useEffect(() => {
    if (Editor) return;
    import('../editor/editor-page.tsx').then(
      (m) => { loaded = m.EditorPage; setEditor(() => m.EditorPage); },
      () => setError(new ApiError(0, 'client_error', 'The editor could not be loaded; check your connection and reload the page.')),
    );
  }, []);
  if (error) return <ErrorNotice error={error} />;
  return Editor ? <Editor id={id} path={path || undefined} /> : <Loading />;
}
