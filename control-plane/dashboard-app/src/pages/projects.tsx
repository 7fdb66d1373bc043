/** Projects: every project of the organization with its status and last deploy, kept current by the organization's deployment stream. */
import { useEffect, useRef } from 'preact/hooks';
import { api, items } from '../api.ts';
import { can, useSession } from '../session.ts';
import { formatDate } from '../ui/format.ts';
import { ErrorNotice, Loading } from '../ui/notice.tsx';
import { StatusBadge } from '../ui/status-badge.tsx';
import { useEventStream } from '../ui/use-event-stream.ts';
import { useLoad } from '../ui/use-load.ts';
import type { Project } from '../ui/use-project.ts';
import { ProjectHealth } from './deployments.tsx';

export function ProjectsPage() {
  const { session } = useSession();
  const projects = useLoad(async () => items<Project>(await api('GET', '/projects')), []);
  // Any deployment of the organization that appears or changes: the list shows its new state.
  const pending = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const reload = projects.reload;
  const seen = useRef(new Map<string, string>());
  useEventStream<{ id: string; status: string }>('/deployments/events', (d) => {
    const known = seen.current.get(d.id);
    seen.current.set(d.id, d.status);
    // One reload for a burst of messages (every connection starts with the newest deployments).
    if (known === d.status || pending.current) return;
    pending.current = setTimeout(() => { pending.current = undefined; void reload(); }, 300);
  });
  useEffect(() => () => clearTimeout(pending.current), []);
  return (
    <>
      <div class="heading-row">
        <h1>Projects</h1>
        {can(session, 'projects.write') && <a class="button" href="/projects/new">New project</a>}
      </div>
      <ErrorNotice error={projects.error} />
      {projects.loading && !projects.data ? <Loading /> : projects.data?.length === 0 ? (
        <p class="muted">No projects yet. Create one, push your docs to it, and the site goes live.</p>
      ) : (
        <ul class="rows">
          {projects.data?.map((p) => (
            <li class="row" key={p.id}>
              <div class="row-main">
                <a class="title" href={`/projects/${encodeURIComponent(p.id)}/deployments`}>{p.name}</a> <StatusBadge status={p.status} />
                <p class="muted">
                  <code>{p.slug}</code>{p.github_repo ? ` · ${p.github_repo}` : ' · managed repository'} · last deploy {formatDate(p.last_deployment?.finished_at ?? p.last_deploy_at)}
                  {p.last_deployment && <> (<StatusBadge status={p.last_deployment.status} failedPages={p.last_deployment.pages_failed} />)</>}
                </p>
                <ProjectHealth project={p} />
              </div>
              {p.site_url && p.status === 'active' && <div class="row-actions"><a href={p.site_url} target="_blank" rel="noopener noreferrer">Open site</a></div>}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
