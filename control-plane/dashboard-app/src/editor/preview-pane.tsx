/**
 * The live preview beside the editor: the page as the site shows it, built by the platform's
 * builder from the text being typed (`POST /editor/preview`). Edits are sent shortly after
 * typing pauses, never more than one request at a time, and the newest text always wins; the
 * frame's URL stays the same while the page does, and the page swaps its content in place when
 * rebuilt (no reload, the scroll position kept). A page that fails keeps its last good version
 * shown, and its problems (line, column, message) go to the editor.
 *
 * The frame is sandboxed without `allow-same-origin` (the server also answers it with a
 * `sandbox` policy): the page is customer code and runs in an opaque origin, so it can never
 * read the dashboard, its cookies or its API.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, ApiError } from '../api.ts';
import type { Problem } from './api.ts';

export interface PreviewPaneProps {
  projectId: string;
  path: string;
  content: string;
  onProblems(problems: Problem[]): void;
}

interface PreviewAnswer { url: string; problems: Array<Problem & { file?: string }> }

/** Pause in typing before the text is sent. */
const DEBOUNCE_MS = 150;

export function PreviewPane({ projectId, path, content, onProblems }: PreviewPaneProps) {
  const [url, setUrl] = useState<string | undefined>();
  const [status, setStatus] = useState<'building' | 'ready' | 'problems' | 'error'>('building');
  const [error, setError] = useState<string | undefined>();
  const latest = useRef({ projectId, path, content });
  const report = useRef(onProblems);
  report.current = onProblems;
  const inFlight = useRef(false);
  const again = useRef(false);
  const shown = useRef<{ projectId: string; path: string } | undefined>(undefined);

  const send = async (): Promise<void> => {
    if (inFlight.current) { again.current = true; return; }
    inFlight.current = true;
    const sent = latest.current;
    try {
      const res = await api<PreviewAnswer>('POST', `/projects/${encodeURIComponent(sent.projectId)}/editor/preview`, { path: sent.path, content: sent.content });
      const current = latest.current;
      if (current.projectId === sent.projectId && current.path === sent.path) {
        report.current(res.problems);
        const samePage = shown.current?.projectId === sent.projectId && shown.current.path === sent.path;
        // The last good page stays: a failed page changes the frame only when it shows another file.
        if (res.problems.length === 0 || !samePage) {
          setUrl((before) => (before === res.url ? before : res.url));
          shown.current = { projectId: sent.projectId, path: sent.path };
        }
        setStatus(res.problems.length ? 'problems' : 'ready');
        setError(undefined);
      }
    } catch (err) {
      setStatus('error');
      setError(err instanceof ApiError ? err.message : 'The preview could not be reached');
    } finally {
      inFlight.current = false;
      if (again.current) { again.current = false; void send(); }
    }
  };

  useEffect(() => {
    latest.current = { projectId, path, content };
    // An empty text before the file has loaded would show a blank page: sent only once the file had text.
    if (content === '' && !(shown.current?.projectId === projectId && shown.current.path === path)) return undefined;
    const timer = setTimeout(() => void send(), DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [projectId, path, content]);

  return (
    <section class="preview-pane" aria-label="Preview" style={{ display: 'flex', flexDirection: 'column', height: '100%', minHeight: '24rem' }}>
      <p class="preview-status" role="status" style={{ margin: '0 0 .25rem', fontSize: '.8125rem', opacity: 0.8 }}>
        {status === 'building' && 'Building the preview…'}
        {status === 'ready' && 'Preview up to date'}
        {status === 'problems' && 'This version has problems: the last good preview is shown'}
        {status === 'error' && (error ?? 'The preview could not be built')}
      </p>
      {url && (
        <iframe
          class="preview-frame"
          title="Preview of the page"
          src={url}
          sandbox="allow-scripts allow-popups allow-forms"
          referrerpolicy="no-referrer"
          style={{ flex: '1 1 auto', width: '100%', minHeight: '24rem', border: '1px solid rgba(127,127,127,.35)', borderRadius: '6px', background: '#fff' }}
        />
      )}
    </section>
  );
}
