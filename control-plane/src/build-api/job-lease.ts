/**
 * The lease a build proves on the job routes of ci-api.ts and upload-grants.ts: its build token
 * (Bearer) and fencing token (X-Folio-Fencing), checked against the deployment by `verifyLease`.
 */
import type Koa from 'koa';
import type { Deployment } from '../db/models/index.ts';
import { AppError, invalid, unauthorized } from '../errors.ts';
import type { Deps } from '../http/route.ts';
import { verifyLease } from '../deploy/queue.ts';

function fencingOf(ctx: Koa.Context): number {
  const value = ctx.get('x-folio-fencing');
  if (!/^[1-9]\d{0,15}$/.test(value)) throw invalid('X-Folio-Fencing', 'Unexpected or missing header; expected the job\'s fencing token (a positive integer)');
  return Number(value);
}

function buildToken(ctx: Koa.Context): string {
  const m = /^Bearer\s+(\S+)$/i.exec(ctx.get('authorization'));
  if (!m) throw unauthorized('Missing build token');
  return m[1];
}

/**
 * The deployment whose lease the request holds, while it may still publish: 400 without a fencing
 * token, 401 without a build token, 409 `lease_lost` for a stale or revoked lease, or for a
 * preview whose branch was deleted while it built (its files are gone for good).
 */
export async function publishingDeployment(deps: Deps, ctx: Koa.Context, deploymentId: string): Promise<Deployment> {
  const d = await verifyLease(deps.m, { deploymentId, fencing: fencingOf(ctx), token: buildToken(ctx) }, deps.now());
  if (d.preview_label && !await deps.m.Preview.exists({ project_id: d.project_id, label: d.preview_label, status: 'active' })) {
    throw new AppError(409, 'lease_lost', 'The branch of this preview was deleted; the build publishes nothing');
  }
  return d;
}
