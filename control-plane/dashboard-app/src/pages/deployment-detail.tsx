/** One deployment: status (live while it runs), commit with its message and author, trigger, step timings, per-page failures and the build log. */
import { api } from '../api.ts';
import { navigate } from '../router.ts';
import { submitWith, useSubmit } from '../ui/form.tsx';
import { duration, formatDate } from '../ui/format.ts';
import { ProjectTabs } from '../ui/layout.tsx';
import { ErrorNotice, Loading } from '../ui/notice.tsx';
import { StatusBadge } from '../ui/status-badge.tsx';
import { useLoad } from '../ui/use-load.ts';
import { usePoll } from '../ui/use-poll.ts';
import { useProject } from '../ui/use-project.ts';
import { isLive, triggerLabel, type Deployment } from './deployments.tsx';

/** The failures as `file:line:column: message` lines, from a structured list or the error text. */
export function failureLines(d: Deployment): string[] {
  if (d.failures?.length) {
    return d.failures.map((f) => (typeof f === 'string' ? f : `${f.file}${f.line != null ? `:${f.line}` : ''}${f.column != null ? `:${f.column}` : ''}: ${f.message}`));
  }
  return d.error ? d.error.split('\n').filter((l) => l.trim()) : [];
}

export function DeploymentDetailPage({ id, deploymentId }: { id: string; deploymentId: string }) {
  const project = useProject(id);
  const base = `/projects/${encodeURIComponent(id)}/deployments`;
  const dep = useLoad(() => api<Deployment>('GET', `${base}/${encodeURIComponent(deploymentId)}`), [id, deploymentId]);
  const d = dep.data;
  usePoll(dep.reload, Boolean(d && isLive(d)), 1000);
  const redeploy = useSubmit(async () => {
    const next = await api<Deployment>('POST', base);
    if (next?.id) navigate(`${base}/${encodeURIComponent(next.id)}`);
  });
  const timings = Object.entries(d?.timings ?? d?.stats?.timings ?? {});
  const failures = d ? failureLines(d) : [];
  return (
    <>
      <ProjectTabs id={id} name={project.data?.name ?? '…'} current="deployments" />
      <p class="crumbs"><a href={base}>All deployments</a></p>
      <h1>Deployment <code>{deploymentId.slice(0, 8)}</code></h1>
      <ErrorNotice error={dep.error ?? redeploy.error} />
      {!d ? (!dep.error && <Loading />) : (
        <>
          <dl class="facts" aria-live="polite">
            <dt>Status</dt><dd data-testid="deployment-status"><StatusBadge status={d.status} failedPages={d.pages_failed} />{isLive(d) && <span class="muted"> (updating live)</span>}</dd>
            <dt>Commit</dt><dd><code>{d.commit_sha ?? '—'}</code>{d.commit_message && <div class="commit-message">{d.commit_message}</div>}{d.commit_author && <div class="muted small">{d.commit_author}</div>}</dd>
            <dt>Trigger</dt><dd>{triggerLabel(d.trigger)}</dd>
            <dt>Started</dt><dd>{formatDate(d.started_at)}</dd>
            <dt>Finished</dt><dd>{formatDate(d.finished_at)}</dd>
            <dt>Pages</dt><dd>{d.pages_total == null ? '—' : `${d.pages_success ?? 0} of ${d.pages_total} built, ${d.pages_failed ?? 0} failed`}</dd>
          </dl>
          {timings.length > 0 && (
            <section aria-labelledby="timings-title">
              <h2 id="timings-title">Timings per step</h2>
              <div class="table-wrap">
                <table>
                  <thead><tr><th scope="col">Step</th><th scope="col">Time</th></tr></thead>
                  <tbody>{timings.map(([step, ms]) => <tr key={step}><td>{step}</td><td>{duration(ms)}</td></tr>)}</tbody>
                </table>
              </div>
            </section>
          )}
          {failures.length > 0 && (
            <section aria-labelledby="failures-title">
              <h2 id="failures-title">{d.status === 'failed' && !d.pages_failed ? 'Error' : 'Failed pages'}</h2>
              <pre class="failures" tabIndex={0}><code>{failures.join('\n')}</code></pre>
            </section>
          )}
          {(d.log?.length ?? 0) > 0 && (
            <section aria-labelledby="log-title">
              <h2 id="log-title">Build log</h2>
              <pre class="build-log" tabIndex={0} data-testid="build-log"><code>{d.log!.join('\n')}</code></pre>
            </section>
          )}
          {!isLive(d) && (
            <form onSubmit={submitWith(redeploy.run)}><button type="submit" disabled={redeploy.pending}>Redeploy</button></form>
          )}
        </>
      )}
    </>
  );
}
