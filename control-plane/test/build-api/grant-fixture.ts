/**
 * A control plane with the internal build API and the job routes (as the platform mounts them)
 * over a real object store, and claimed deployments to ask upload grants for.
 */
import type Koa from 'koa';
import type { ObjectStore } from '@folio/builder';
import { ciApi } from '../../src/build-api/ci-api.ts';
import { internalApi } from '../../src/build-api/internal-api.ts';
import { claimJob } from '../../src/deploy/claim-job.ts';
import { usePublishRollback } from '../../src/deploy/publish-rollback.ts';
import { parseEnv } from '../../src/env.ts';
import { startTestApi, type TestApi } from '../helpers/api.ts';

export interface Claimed { id: string; projectId: string; fencing: number; token: string }
export interface Answer { status: number; body: any }

/**
 * `before`: a test's hook in front of the routes (e.g. to play an older control plane); `seen`
 * lists every request's method and path (query left out), in order.
 */
export async function startGrantApi(store: ObjectStore, env: Record<string, string> = {}, before?: Koa.Middleware) {
  let routes: Koa.Middleware[] | undefined;
  const seen: string[] = [];
  const api: TestApi = await startTestApi({
    env: parseEnv({ API_PORT: '0', LOG_LEVEL: 'silent', ...env, ...(process.env.MONGODB_URI ? { MONGODB_URI: process.env.MONGODB_URI } : {}) }),
    services: { siteStore: store },
    middleware: [(ctx, next) => {
      seen.push(`${ctx.method} ${ctx.path}`);
      routes ??= [...(before ? [before] : []), internalApi(api.cp.deps, 'test-worker-secret'), ciApi(api.cp.deps)];
      const run = (i: number): Promise<void> => (i === routes!.length ? next() : Promise.resolve(routes![i](ctx, () => run(i + 1))));
      return run(0);
    }],
  });
  usePublishRollback(api.cp.m, store);
  const origin = new URL(api.url).origin;
  const answer = async (res: Response): Promise<Answer> => {
    const text = await res.text();
    // JSON from the control plane, XML from a store.
    return { status: res.status, body: text && res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text || undefined };
  };
  return {
    api, origin, seen,
    /** A queued deployment of a new project, claimed with a lease of `leaseMs`. */
    async claimed(leaseMs = 30_000): Promise<Claimed> {
      const { key } = await api.tenant('pro');
      const project = await api.project(key);
      const queued = (await api.request('POST', `/projects/${project.id}/deployments`, { key })).body;
      const job = (await claimJob(api.cp.m, 'worker-1', api.clock.now, leaseMs))!;
      if (job.deployment._id !== queued.id) throw new Error('claimed another deployment');
      return { id: queued.id, projectId: project.id, fencing: job.deployment.fencing!, token: job.token };
    },
    /** `POST /jobs/:id/uploads` with the job's credentials (or `headers` instead). */
    async grant(job: Claimed, body: unknown, headers?: Record<string, string>): Promise<Answer> {
      return answer(await fetch(`${origin}/internal/v1/jobs/${job.id}/uploads`, {
        method: 'POST', body: typeof body === 'string' ? body : JSON.stringify(body),
        headers: headers ?? { authorization: `Bearer ${job.token}`, 'x-folio-fencing': String(job.fencing), 'content-type': 'application/json' },
      }));
    },
    /** PUTs `bytes` with a grant's URL and headers (`headers` override them). */
    async upload(grant: { url: string; headers: Record<string, string> }, bytes: Uint8Array, headers: Record<string, string> = {}): Promise<Answer> {
      return answer(await fetch(new URL(grant.url, origin), { method: 'PUT', body: bytes as BodyInit, headers: { ...grant.headers, ...headers } }));
    },
    /** The job's final report. */
    async complete(job: Claimed, status: 'deployed' | 'failed'): Promise<Answer> {
      return answer(await fetch(`${origin}/internal/v1/jobs/${job.id}/complete`, {
        method: 'POST', headers: { authorization: `Bearer ${job.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ fencing: job.fencing, status, ...(status === 'failed' ? { error: 'the build failed' } : { pages_total: 0, pages_success: 0, pages_failed: 0 }) }),
      }));
    },
  };
}
