/**
 * The writing agent (`/projects/:id/agent`): give it a task, follow its steps as they happen,
 * then review what it changed (the diff, the preview of its branch) and merge the branch into
 * the production branch, or leave it. Runs spend agent credits (plan page).
 */
import { useEffect, useState } from 'preact/hooks';
import { API_BASE, ApiError, api } from '../api.ts';
import { useSubmit, submitWith } from '../ui/form.tsx';
import { ProjectTabs } from '../ui/layout.tsx';
import { ErrorNotice, Loading, Notice } from '../ui/notice.tsx';
import { useLoad } from '../ui/use-load.ts';
import { useProject } from '../ui/use-project.ts';

interface Step { n: number; kind: 'tool' | 'message' | 'commit'; tool: string | null; ok: boolean; summary: string; at: string }
interface RunSummary {
  id: string; task: string; status: 'running' | 'finished' | 'failed' | 'cancelled' | 'stopped'; outcome: string | null; branch: string;
  credits: number; steps: number; preview_url: string | null; commit: string | null; created_at: string;
}
interface RunDetail extends Omit<RunSummary, 'steps'> { steps: Step[]; diff: string | null; files: { path: string; deleted: boolean }[] }

const STATUS_WORDS: Record<RunSummary['status'], string> = { running: 'Working…', finished: 'Finished', failed: 'Failed', cancelled: 'Cancelled', stopped: 'Stopped at its limit' };
const TOOL_WORDS: Record<string, string> = { search_docs: 'Search', read_page: 'Read', write_page: 'Write', move_page: 'Move', read_openapi: 'OpenAPI', run_build: 'Build', finish: 'Done' };

/** Follows a run's `step` and `done` events. */
function useRunEvents(base: string, runId: string | null, onStep: (s: Step) => void, onDone: (r: RunDetail) => void): void {
  useEffect(() => {
    if (!runId) return;
    const source = new EventSource(`${API_BASE}${base}/agent/runs/${encodeURIComponent(runId)}/events`);
    source.addEventListener('step', (e) => onStep(JSON.parse((e as MessageEvent<string>).data) as Step));
    source.addEventListener('done', (e) => { onDone(JSON.parse((e as MessageEvent<string>).data) as RunDetail); source.close(); });
    return () => source.close();
  }, [base, runId]);
}

export function AgentPage({ id }: { id: string }) {
  const project = useProject(id);
  const base = `/projects/${encodeURIComponent(id)}`;
  const runs = useLoad(() => api<{ data: RunSummary[] }>('GET', `${base}/agent/runs`), [base]);
  const [task, setTask] = useState('');
  const [current, setCurrent] = useState<string | null>(null);
  const [steps, setSteps] = useState<Step[]>([]);
  const [detail, setDetail] = useState<RunDetail | null>(null);
  const [merged, setMerged] = useState<string | null>(null);
  const start = useSubmit(async () => {
    const run = await api<RunSummary>('POST', `${base}/agent/runs`, { task });
    setSteps([]);
    setDetail(null);
    setMerged(null);
    setCurrent(run.id);
  });
  const open = async (runId: string) => {
    const run = await api<RunDetail>('GET', `${base}/agent/runs/${encodeURIComponent(runId)}`);
    setMerged(null);
    setSteps(run.steps);
    if (run.status === 'running') { setDetail(null); setSteps([]); setCurrent(runId); } else { setCurrent(null); setDetail(run); }
  };
  useRunEvents(base, current, (s) => setSteps((all) => [...all, s]), (r) => { setDetail(r); setSteps(r.steps); setCurrent(null); void runs.reload(); });
  const cancel = useSubmit(async () => { if (current) await api('POST', `${base}/agent/runs/${encodeURIComponent(current)}/cancel`); });
  const merge = useSubmit(async () => {
    if (!detail) return;
    const out = await api<{ commit: string }>('POST', `${base}/editor/merge`, { branch: detail.branch });
    setMerged(out.commit);
  });
  const running = Boolean(current);
  return (
    <>
      <ProjectTabs id={id} name={project.data?.name ?? '…'} current="agent" />
      <h1>Writing agent</h1>
      <p class="lead">Describe a change to your docs. The agent searches, reads and edits pages on a new branch, builds a preview, and shows you the diff; nothing reaches your live site until you merge it.</p>
      <form aria-label="New task" onSubmit={submitWith(start.run)}>
        <div class="field">
          <label for="agent-task">Task</label>
          <textarea id="agent-task" rows={3} value={task} required maxLength={4000} placeholder="Document the new /v1/widgets endpoint from the OpenAPI file" onInput={(e) => setTask(e.currentTarget.value)} />
        </div>
        <button type="submit" disabled={start.pending || running || !task.trim()}>Start</button>
        {running && <button type="button" class="secondary" onClick={() => void cancel.run()} disabled={cancel.pending}>Cancel</button>}
      </form>
      <ErrorNotice error={start.error ?? cancel.error} />
      {(running || detail) && (
        <section aria-labelledby="run-title">
          <h2 id="run-title">{detail ? STATUS_WORDS[detail.status] : STATUS_WORDS.running}</h2>
          <ol class="agent-steps" aria-label="Steps">
            {steps.map((s, i) => (
              <li key={i} class={s.ok ? '' : 'refused'}>
                <strong>{s.kind === 'tool' ? (TOOL_WORDS[s.tool ?? ''] ?? s.tool) : s.kind === 'commit' ? 'Commit' : 'Note'}</strong>{' '}{s.summary}
              </li>
            ))}
          </ol>
          {detail && (
            <>
              {detail.outcome && <p class="agent-outcome">{detail.outcome}</p>}
              <p class="muted">{detail.credits} credit{detail.credits === 1 ? '' : 's'} spent · branch <code>{detail.branch}</code></p>
              {detail.preview_url && <p><a href={detail.preview_url} target="_blank" rel="noopener noreferrer">Open the preview</a></p>}
              {detail.diff ? <pre class="agent-diff" aria-label="Changes">{detail.diff}</pre> : <p class="muted">No files changed.</p>}
              {detail.commit && !merged && <button type="button" onClick={() => void merge.run()} disabled={merge.pending}>Merge into the live site</button>}
              {merged && <Notice tone="success">Merged ({merged.slice(0, 7)}); the site is deploying.</Notice>}
              <ErrorNotice error={merge.error} />
            </>
          )}
        </section>
      )}
      <section aria-labelledby="runs-title">
        <h2 id="runs-title">Earlier runs</h2>
        {runs.error ? <ErrorNotice error={runs.error instanceof ApiError ? runs.error : undefined} /> : !runs.data ? <Loading /> : runs.data.data.length === 0 ? <p class="muted">No runs yet.</p> : (
          <ul class="agent-runs">
            {runs.data.data.map((r) => (
              <li key={r.id}><button type="button" class="link" onClick={() => void open(r.id)}>{r.task.slice(0, 80)}</button> <span class="muted">{STATUS_WORDS[r.status]} · {r.credits} credits</span></li>
            ))}
          </ul>
        )}
      </section>
    </>
  );
}
