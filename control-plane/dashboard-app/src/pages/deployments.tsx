/** Deployments of a project, newest first, following the project's deployment stream (new ones appear, states change live); Redeploy. */
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, items } from '../api.ts';
import { navigate } from '../router.ts';
import { submitWith, useSubmit } from '../ui/form.tsx';
import { duration, formatDate } from '../ui/format.ts';
import { ProjectTabs } from '../ui/layout.tsx';
import { ErrorNotice, Loading } from '../ui/notice.tsx';
import { TRIGGER_LABELS, humanize } from '../shared/labels.ts';
import { StatusBadge } from '../ui/status-badge.tsx';
import { useLoad } from '../ui/use-load.ts';
import { useEventStream } from '../ui/use-event-stream.ts';
import { useProject } from '../ui/use-project.ts';
import type { Project } from '../ui/use-project.ts';

export interface Deployment {
  id: string;
  status: string;
  commit_sha: string | null;
  started_at: string;
  finished_at: string | null;
  pages_total: number | null;
  pages_success: number | null;
  pages_failed: number | null;
  error: string | null;
  warnings?: string[];
  trigger?: string;
  commit_message?: string | null;
  commit_author?: string | null;
  /** The build log: the lines the builder sends while it runs, the kept log once it ended. */
  log?: string[];
  preview_url?: string | null;
  branch?: string | null;
  failures?: ({ file: string; line?: number; column?: number; message: string } | string)[];
  timings?: Record<string, number> | null;
  /** What the builder reported: pages compiled, objects uploaded and deleted, timings per step (ms). */
  stats?: { timings?: Record<string, number>; compiled?: number; uploaded?: number; deleted?: number } | null;
}

/** Whether a deployment can still change. */
export const isLive = (d: Deployment) => d.status === 'queued' || d.status === 'building';

/** The short commit id. */
export const shortSha = (sha: string | null | undefined) => (sha ? sha.slice(0, 7) : '—');

/** What queued a deployment, in words. */
export function triggerLabel(trigger: string | undefined): string {
  return trigger ? TRIGGER_LABELS[trigger] ?? humanize(trigger) : '—';
}

/** `list` with `d` put in (replacing the same id), newest first, at most `max` long. */
export function upsertDeployment(list: Deployment[], d: Deployment, max = 20): Deployment[] {
  const rest = list.filter((x) => x.id !== d.id);
  return [d, ...rest].sort((a, b) => (a.started_at < b.started_at ? 1 : a.started_at > b.started_at ? -1 : a.id < b.id ? 1 : -1)).slice(0, max);
}

/** The project's state in one sentence when its last deployment failed while an older site stays live. */
export function ProjectHealth({ project }: { project: Project }) {
  const last = project.last_deployment;
  if (!last || last.status !== 'failed' || project.status !== 'active' || !project.live_commit_sha) return null;
  return (
    <p class="notice warning" data-testid="project-health">
      Last deployment failed; the site still serves <code>{shortSha(project.live_commit_sha)}</code>.
    </p>
  );
}

export function DeploymentsPage({ id }: { id: string }) {
  const project = useProject(id);
  const base = `/projects/${encodeURIComponent(id)}/deployments`;
  const list = useLoad(async () => items<Deployment>(await api('GET', base)), [id]);
  const [rows, setRows] = useState<Deployment[] | undefined>(undefined);
  const shown = useRef<Deployment[]>([]);
  shown.current = rows ?? [];
  // The loaded list, then every deployment the project's stream reports as it appears or changes.
  useEffect(() => { if (list.data) setRows(list.data); }, [list.data]);
  const reloadProject = project.reload;
  useEventStream<Deployment>(`${base}/events`, (d) => {
    const before = shown.current.find((x) => x.id === d.id);
    setRows((prev) => upsertDeployment(prev ?? [], d));
    // The project's status and last deployment follow a deployment that has just ended.
    if (!isLive(d) && before && before.status !== d.status) void reloadProject();
  });
  const redeploy = useSubmit(async () => {
    const d = await api<Deployment>('POST', base);
    if (d?.id) navigate(`${base}/${encodeURIComponent(d.id)}`);
    else await list.reload();
  });
  return (
    <>
      <ProjectTabs id={id} name={project.data?.name ?? '…'} current="deployments" />
      <div class="heading-row">
        <h1>Deployments</h1>
        <form onSubmit={submitWith(redeploy.run)}><button type="submit" disabled={redeploy.pending}>Redeploy</button></form>
      </div>
      {project.data && <ProjectHealth project={project.data} />}
      <ErrorNotice error={redeploy.error ?? list.error} />
      {!rows ? (list.loading && <Loading />) : rows.length === 0 ? (
        <p class="muted">No deployments yet. Push to the repository (see <a href={`/projects/${encodeURIComponent(id)}/settings`}>Settings</a>) or press Redeploy.</p>
      ) : (
        <div class="table-wrap">
          <table>
            <caption class="sr-only">Deployments, newest first</caption>
            <thead><tr><th scope="col">Status</th><th scope="col">Commit</th><th scope="col">Trigger</th><th scope="col">Started</th><th scope="col">Duration</th><th scope="col">Pages</th></tr></thead>
            <tbody aria-live="polite">
              {rows.map((d) => (
                <tr key={d.id} data-deployment={d.id}>
                  <td><a href={`${base}/${encodeURIComponent(d.id)}`}><StatusBadge status={d.status} failedPages={d.pages_failed} /><span class="sr-only"> deployment {d.id}</span></a></td>
                  <td>
                    <code>{shortSha(d.commit_sha)}</code>
                    {d.commit_message && <div class="commit-message">{d.commit_message}</div>}
                    {d.commit_author && <div class="muted small">{d.commit_author}</div>}
                  </td>
                  <td>{triggerLabel(d.trigger)}</td>
                  <td>{formatDate(d.started_at)}</td>
                  <td>{d.finished_at ? duration(new Date(d.finished_at).getTime() - new Date(d.started_at).getTime()) : '…'}</td>
                  <td>{d.pages_total == null ? '—' : `${d.pages_success ?? 0}/${d.pages_total}${d.pages_failed ? `, ${d.pages_failed} failed` : ''}`}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
