/**
 * Self-updating workflows (`/projects/:id/workflows`, Enterprise): each workflow is a trigger (a
 * push to the code of another project, a schedule, or a button) plus instructions for the writing
 * agent; its runs end as review branches or, in direct mode, are merged into the live site. Lists
 * the workflows and their runs with credits and outcomes; a run's steps and diff are on the
 * writing agent page.
 */
import { useState } from 'preact/hooks';
import { ApiError, api, items } from '../api.ts';
import { submitWith, useSubmit } from '../ui/form.tsx';
import { ProjectTabs } from '../ui/layout.tsx';
import { ErrorNotice, Loading } from '../ui/notice.tsx';
import { formatDate } from '../ui/format.ts';
import { useLoad } from '../ui/use-load.ts';
import { useProject } from '../ui/use-project.ts';

type TriggerKind = 'push' | 'schedule' | 'call';
interface Workflow {
  id: string; name: string; instructions: string; trigger: TriggerKind; source_project_id: string | null; source_branch: string | null;
  every_minutes: number | null; next_run_at: string | null; publish: 'review' | 'direct'; enabled: boolean;
}
interface Run {
  id: string; workflow_id: string; trigger: string; status: string; outcome: string | null; branch: string;
  credits: number; commit: string | null; published_commit: string | null; created_at: string;
}

const TRIGGER_WORDS: Record<string, string> = { push: 'Code push', schedule: 'Schedule', call: 'Run now' };
const STATUS_WORDS: Record<string, string> = { running: 'Working…', finished: 'Finished', failed: 'Failed', cancelled: 'Cancelled', stopped: 'Stopped at its limit' };

function triggerText(w: Workflow, projects: { id: string; name: string }[]): string {
  if (w.trigger === 'push') return `On a push to ${w.source_branch ?? 'main'} of ${projects.find((p) => p.id === w.source_project_id)?.name ?? 'another project'}`;
  if (w.trigger === 'schedule') return `Every ${w.every_minutes} minutes${w.next_run_at ? `, next ${formatDate(w.next_run_at)}` : ''}`;
  return 'When started here';
}

/** What a run ended as: published, a review branch, or nothing changed. */
function runResult(r: Run): string {
  if (r.published_commit) return `Published (${r.published_commit.slice(0, 7)})`;
  if (r.commit) return `Review branch ${r.branch}`;
  return r.status === 'running' ? '' : 'No changes';
}

export function WorkflowsPage({ id }: { id: string }) {
  const project = useProject(id);
  const base = `/projects/${encodeURIComponent(id)}/workflows`;
  const workflows = useLoad(() => api<{ data: Workflow[] }>('GET', base), [base]);
  const runs = useLoad(() => api<{ data: Run[] }>('GET', `${base}/runs`), [base]);
  const projects = useLoad(async () => items<{ id: string; name: string }>(await api('GET', '/projects')), []);
  const others = (projects.data ?? []).filter((p) => p.id !== id);
  const [name, setName] = useState('');
  const [instructions, setInstructions] = useState('');
  const [trigger, setTrigger] = useState<TriggerKind>('push');
  const [source, setSource] = useState('');
  const [branch, setBranch] = useState('main');
  const [every, setEvery] = useState(1440);
  const [publish, setPublish] = useState<'review' | 'direct'>('review');
  const reload = () => { void workflows.reload(); void runs.reload(); };
  const create = useSubmit(async () => {
    await api('POST', base, {
      name, instructions, trigger, publish,
      ...(trigger === 'push' ? { source_project_id: source || others[0]?.id, source_branch: branch } : {}),
      ...(trigger === 'schedule' ? { every_minutes: every } : {}),
    });
    setName('');
    setInstructions('');
    reload();
  });
  const runNow = useSubmit(async (workflowId: string) => { await api('POST', `${base}/${encodeURIComponent(workflowId)}/runs`); reload(); });
  const toggle = useSubmit(async (w: Workflow) => { await api('PATCH', `${base}/${encodeURIComponent(w.id)}`, { enabled: !w.enabled }); reload(); });
  const remove = useSubmit(async (w: Workflow) => { await api('DELETE', `${base}/${encodeURIComponent(w.id)}`); reload(); });
  const gated = workflows.error instanceof ApiError && workflows.error.status === 402;
  const nameOf = (workflowId: string) => workflows.data?.data.find((w) => w.id === workflowId)?.name ?? 'Deleted workflow';
  return (
    <>
      <ProjectTabs id={id} name={project.data?.name ?? '…'} current="workflows" />
      <h1>Workflows</h1>
      <p class="lead">Keep these docs current with your code: a workflow starts the writing agent when code is pushed, on a schedule, or when you start it, with your instructions and the code change. Each run ends as a review branch, or is published directly if you choose so. Runs spend agent credits.</p>
      {gated ? <ErrorNotice error={workflows.error as ApiError} /> : (
        <>
          <section aria-labelledby="wf-title">
            <h2 id="wf-title">This project's workflows</h2>
            {workflows.error ? <ErrorNotice error={workflows.error as ApiError} /> : !workflows.data ? <Loading /> : workflows.data.data.length === 0 ? <p class="muted">No workflows yet.</p> : (
              <ul class="workflows">
                {workflows.data.data.map((w) => (
                  <li key={w.id}>
                    <strong>{w.name}</strong> <span class="muted">{triggerText(w, projects.data ?? [])} · {w.publish === 'direct' ? 'publishes directly' : 'review branch'}{w.enabled ? '' : ' · off'}</span>
                    <p>{w.instructions}</p>
                    <button type="button" onClick={() => void runNow.run(w.id)} disabled={runNow.pending || !w.enabled}>Run now</button>{' '}
                    <button type="button" class="secondary" onClick={() => void toggle.run(w)} disabled={toggle.pending}>{w.enabled ? 'Turn off' : 'Turn on'}</button>{' '}
                    <button type="button" class="secondary" onClick={() => void remove.run(w)} disabled={remove.pending}>Delete</button>
                  </li>
                ))}
              </ul>
            )}
            <ErrorNotice error={runNow.error ?? toggle.error ?? remove.error} />
          </section>
          <form aria-label="New workflow" onSubmit={submitWith(create.run)}>
            <h2>New workflow</h2>
            <div class="field"><label for="wf-name">Name</label><input id="wf-name" value={name} required maxLength={100} onInput={(e) => setName(e.currentTarget.value)} /></div>
            <div class="field"><label for="wf-instructions">Instructions</label><textarea id="wf-instructions" rows={3} value={instructions} required maxLength={4000} placeholder="Update the API reference for what the code change adds or removes" onInput={(e) => setInstructions(e.currentTarget.value)} /></div>
            <div class="field">
              <label for="wf-trigger">Starts</label>
              <select id="wf-trigger" value={trigger} onChange={(e) => setTrigger(e.currentTarget.value as TriggerKind)}>
                <option value="push">When code is pushed</option><option value="schedule">On a schedule</option><option value="call">Only when started here</option>
              </select>
            </div>
            {trigger === 'push' && (
              <>
                <div class="field">
                  <label for="wf-source">Code project</label>
                  <select id="wf-source" value={source || others[0]?.id || ''} onChange={(e) => setSource(e.currentTarget.value)}>
                    {others.map((p) => <option key={p.id} value={p.id}>{p.name}</option>)}
                  </select>
                </div>
                <div class="field"><label for="wf-branch">Branch</label><input id="wf-branch" value={branch} required onInput={(e) => setBranch(e.currentTarget.value)} /></div>
              </>
            )}
            {trigger === 'schedule' && <div class="field"><label for="wf-every">Every (minutes)</label><input id="wf-every" type="number" min={5} max={10080} value={every} onInput={(e) => setEvery(Number(e.currentTarget.value))} /></div>}
            <div class="field">
              <label for="wf-publish">When a run finishes</label>
              <select id="wf-publish" value={publish} onChange={(e) => setPublish(e.currentTarget.value as 'review' | 'direct')}>
                <option value="review">Leave a review branch to merge</option><option value="direct">Publish to the live site</option>
              </select>
            </div>
            <button type="submit" disabled={create.pending || !name.trim() || !instructions.trim() || (trigger === 'push' && others.length === 0)}>Create workflow</button>
            <ErrorNotice error={create.error} />
          </form>
          <section aria-labelledby="wf-runs-title">
            <h2 id="wf-runs-title">Runs</h2>
            {runs.error ? <ErrorNotice error={runs.error as ApiError} /> : !runs.data ? <Loading /> : runs.data.data.length === 0 ? <p class="muted">No runs yet.</p> : (
              <div class="table-wrap" tabIndex={0} role="region" aria-label="Workflow runs">
                <table>
                  <thead><tr><th scope="col">Workflow</th><th scope="col">Started by</th><th scope="col">When</th><th scope="col">Status</th><th scope="col">Credits</th><th scope="col">Outcome</th></tr></thead>
                  <tbody>
                    {runs.data.data.map((r) => (
                      <tr key={r.id}>
                        <td>{nameOf(r.workflow_id)}</td><td>{TRIGGER_WORDS[r.trigger] ?? r.trigger}</td><td>{formatDate(r.created_at)}</td>
                        <td>{STATUS_WORDS[r.status] ?? r.status}</td><td>{r.credits}</td>
                        <td>{[runResult(r), r.outcome].filter(Boolean).join(' · ')}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </section>
        </>
      )}
    </>
  );
}
