import type { Deployment } from '../db/models/deployment.ts';
import { logEvent } from '../log/structured-log.ts';

/** The one-line summary of a finished deployment, as push feedback and the log both word it. */
export function outcomeText(d: Pick<Deployment, 'status' | 'pages_total' | 'pages_failed' | 'error'>, siteUrl: string): string {
  if (d.status === 'deployed') return `Deployed ${d.pages_total ?? 0} pages (${d.pages_failed ?? 0} failed) → ${siteUrl}`;
  return `Deployment failed: ${d.error ?? 'Build failed'}`;
}

/** Logs a deployment that reached `deployed` or `failed`: one line per outcome, with its figures. */
export function logDeploymentOutcome(d: Deployment): void {
  const started = d.started_at ? new Date(d.started_at).getTime() : undefined;
  const finished = d.finished_at ? new Date(d.finished_at).getTime() : undefined;
  const durationMs = started !== undefined && finished !== undefined ? finished - started : undefined;
  const pages = d.status === 'deployed' ? `${d.pages_total ?? 0} pages (${d.pages_failed ?? 0} failed)` : (d.error ?? 'Build failed');
  logEvent(d.status === 'failed' ? 'error' : 'info', 'deployment.finished', `deployment ${d._id} of project ${d.project_id} ${d.status}: ${pages}${durationMs !== undefined ? ` in ${(durationMs / 1000).toFixed(1)} s` : ''}`, {
    project: d.project_id, deployment: d._id, status: d.status, commit: d.commit_sha ?? undefined,
    pages_total: d.pages_total ?? undefined, pages_failed: d.pages_failed ?? undefined, duration_ms: durationMs, error: d.error ?? undefined,
  });
}
