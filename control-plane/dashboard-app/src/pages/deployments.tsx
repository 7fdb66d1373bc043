/** Deployments of a project, newest first, refreshed while one is queued or building; Redeploy. */
import { api, items } from '../api.ts';
import { navigate } from '../router.ts';
import { submitWith, useSubmit } from '../ui/form.tsx';
import { duration, formatDate } from '../ui/format.ts';
import { ProjectTabs } from '../ui/layout.tsx';
import { ErrorNotice, Loading } from '../ui/notice.tsx';
import { StatusBadge } from '../ui/status-badge.tsx';
import { useLoad } from '../ui/use-load.ts';
import { usePoll } from '../ui/use-poll.ts';
import { useProject } from '../ui/use-project.ts';

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
  trigger?: string;
  failures?: ({ file: string; line?: number; column?: number; message: string } | string)[];
  timings?: Record<string, number> | null;
  /** What the builder reported: pages compiled, objects uploaded and deleted, timings per step (ms). */
  stats?: { timings?: Record<string, number>; compiled?: number; uploaded?: number; deleted?: number } | null;
}

/** Whether a deployment can still change. */
export const isLive = (d: Deployment) => d.status === 'queued' || d.status === 'building';

/** The short commit id. */
export const shortSha = (sha: string | null) => (sha ? sha.slice(0, 7) : '—');

export function DeploymentsPage({ id }: { id: string }) {
  const project = useProject(id);
  const base = `/projects/${encodeURIComponent(id)}/deployments`;
  const list = useLoad(async () => items<Deployment>(await api('GET', base)), [id]);
  usePoll(list.reload, Boolean(list.data?.some(isLive)));
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
      <ErrorNotice error={redeploy.error ?? list.error} />
      {list.loading && !list.data ? <Loading /> : list.data?.length === 0 ? (
        <p class="muted">No deployments yet. Push to the repository (see <a href={`/projects/${encodeURIComponent(id)}/settings`}>Settings</a>) or press Redeploy.</p>
      ) : (
        <div class="table-wrap">
          <table>
            <caption class="sr-only">Deployments, newest first</caption>
            <thead><tr><th scope="col">Status</th><th scope="col">Commit</th><th scope="col">Trigger</th><th scope="col">Started</th><th scope="col">Duration</th><th scope="col">Pages</th></tr></thead>
            <tbody>
              {list.data?.map((d) => (
                <tr key={d.id}>
                  <td><a href={`${base}/${encodeURIComponent(d.id)}`}><StatusBadge status={d.status} /><span class="sr-only"> deployment {d.id}</span></a></td>
                  <td><code>{shortSha(d.commit_sha)}</code></td>
                  <td>{d.trigger ?? '—'}</td>
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
