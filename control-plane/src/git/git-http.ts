/**
 * Git smart HTTP for managed repositories at `/git/<slug>.git`, served by `git http-backend`
 * (CGI). Credentials are per project: HTTP Basic with any user name and, as the password, an
 * API key of the project's organization (`projects:read` to fetch, `projects:write` to push) or
 * the build token of a deployment of that project (fetch only). A push that moves the synced
 * branch queues a deployment.
 */
import { spawn } from 'node:child_process';
import type Koa from 'koa';
import { authenticate } from '../auth/api-keys.ts';
import { hasScope } from '../auth/scopes.ts';
import { deploymentForToken, enqueueDeployment } from '../deploy/queue.ts';
import type { Deps } from '../http/route.ts';
import { branchHead, reposDir } from './managed-repos.ts';

const PATH = /^\/git\/([a-z0-9-]+)\.git(\/.*)$/;

function challenge(ctx: Koa.Context, status: number, message: string): void {
  ctx.status = status;
  if (status === 401) ctx.set('WWW-Authenticate', 'Basic realm="Folio Git", charset="UTF-8"');
  ctx.body = { error: status === 401 ? 'unauthorized' : status === 403 ? 'forbidden' : 'not_found', message };
}

function basicPassword(header: string | undefined): string | undefined {
  const m = /^Basic\s+(\S+)$/i.exec(header ?? '');
  if (!m) return undefined;
  const decoded = Buffer.from(m[1], 'base64').toString('utf8');
  const i = decoded.indexOf(':');
  return i >= 0 ? decoded.slice(i + 1) : undefined;
}

export function gitHttpMiddleware(deps: Deps): Koa.Middleware {
  return async (ctx, next) => {
    const match = PATH.exec(ctx.path);
    if (!match) return next();
    const [, slug, rest] = match;
    const project = await deps.m.Project.findOne({ slug }).lean();
    const push = ctx.query.service === 'git-receive-pack' || rest === '/git-receive-pack';
    const password = basicPassword(ctx.get('authorization'));
    if (!password) return challenge(ctx, 401, 'Git access needs credentials: any user name and an API key as the password');
    let allowed = false;
    if (password.startsWith('bt_')) {
      const d = await deploymentForToken(deps.m, password, deps.now());
      allowed = !push && Boolean(project) && d?.project_id === project!._id;
    } else {
      try {
        const key = await authenticate(deps.m, `Bearer ${password}`, deps.now());
        if (project && key.orgId === project.org_id) {
          if (!hasScope(key.scopes, push ? 'projects:write' : 'projects:read')) return challenge(ctx, 403, `This API key lacks the scope ${push ? 'projects:write' : 'projects:read'}`);
          allowed = true;
        }
      } catch {
        return challenge(ctx, 401, 'Invalid credentials');
      }
    }
    // Another organization's repository answers exactly like a missing one.
    if (!project || project.github_repo || !allowed) return challenge(ctx, project && !allowed && password.startsWith('bt_') ? 401 : 404, 'repository not found');

    const branch = project.github_branch ?? 'main';
    const before = push && ctx.method === 'POST' ? await branchHead(deps, project._id, branch) : undefined;
    await runBackend(ctx, deps, project._id, rest);
    if (push && ctx.method === 'POST') {
      const after = await branchHead(deps, project._id, branch);
      if (after && after !== before) {
        await enqueueDeployment(deps.m, project._id, { commitSha: after, trigger: 'push' }, deps.now());
        (deps.services.wakeWorkers as (() => void) | undefined)?.();
      }
    }
  };
}

/** Pipes the request through `git http-backend` and streams its CGI response back. */
function runBackend(ctx: Koa.Context, deps: Deps, projectId: string, rest: string): Promise<void> {
  ctx.respond = false;
  const res = ctx.res;
  return new Promise((resolve) => {
    const child = spawn('git', ['http-backend'], {
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        GIT_PROJECT_ROOT: reposDir(deps),
        GIT_HTTP_EXPORT_ALL: '1',
        PATH_INFO: `/${projectId}.git${rest}`,
        REQUEST_METHOD: ctx.method,
        QUERY_STRING: ctx.querystring,
        CONTENT_TYPE: ctx.get('content-type'),
        ...(ctx.get('content-length') ? { CONTENT_LENGTH: ctx.get('content-length') } : {}),
        ...(ctx.get('content-encoding') ? { HTTP_CONTENT_ENCODING: ctx.get('content-encoding') } : {}),
        ...(ctx.get('git-protocol') ? { GIT_PROTOCOL: ctx.get('git-protocol') } : {}),
        REMOTE_USER: 'folio',
        REMOTE_ADDR: ctx.ip,
      },
    });
    ctx.req.pipe(child.stdin);
    let head = Buffer.alloc(0);
    let headersDone = false;
    child.stdout.on('data', (chunk: Buffer) => {
      if (headersDone) { res.write(chunk); return; }
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) return;
      headersDone = true;
      let status = 200;
      for (const line of head.subarray(0, end).toString().split('\r\n')) {
        const i = line.indexOf(':');
        const name = line.slice(0, i).trim();
        const value = line.slice(i + 1).trim();
        if (name.toLowerCase() === 'status') status = parseInt(value, 10);
        else res.setHeader(name, value);
      }
      res.statusCode = status;
      res.write(head.subarray(end + 4));
    });
    child.on('close', () => {
      if (!headersDone) { res.statusCode = 500; }
      res.end();
      resolve();
    });
    child.on('error', () => { res.statusCode = 500; res.end(); resolve(); });
  });
}
