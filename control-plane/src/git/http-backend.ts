/**
 * Runs `git http-backend` (CGI) for one request of a managed repository and streams its answer
 * back. Successful answers pass through untouched (Git clients read them); the backend's own
 * error answers (plain text, e.g. a 415 for a wrong Content-Type) are replaced by the API's
 * `{ error, message }` body with the same status, so every error the server sends has one shape.
 */
import { spawn } from 'node:child_process';
import type { ServerResponse } from 'node:http';
import type Koa from 'koa';
import type { Deps } from '../http/route.ts';
import { reposDir } from './managed-repos.ts';

const ERRORS: Record<number, { error: string; message: string }> = {
  400: { error: 'invalid_request', message: 'Malformed Git request; expected a Git smart HTTP request' },
  403: { error: 'forbidden', message: 'This Git service is not enabled for the repository' },
  404: { error: 'not_found', message: 'Git object not found' },
  405: { error: 'method_not_allowed', message: 'Unexpected method for this Git service; expected GET or POST' },
  415: { error: 'unsupported_media_type', message: 'Content-Type: Unexpected; expected application/x-git-upload-pack-request or application/x-git-receive-pack-request' },
};

/** The API error body for a status the backend answered (other 4xx are `invalid_request`; 5xx `internal_error`). */
export function backendError(status: number): { status: number; body: { error: string; message: string } } {
  if (status >= 500 || status < 400) return { status: 500, body: { error: 'internal_error', message: 'Internal server error' } };
  return { status, body: ERRORS[status] ?? { error: 'invalid_request', message: 'Malformed Git request; expected a Git smart HTTP request' } };
}

function sendError(res: ServerResponse, backendStatus: number): void {
  const { status, body } = backendError(backendStatus);
  const text = JSON.stringify(body);
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(text));
  res.end(text);
}

/**
 * Pipes the request through `git http-backend` for `rest` (the path below `<project id>.git`).
 * `beforeEnd` runs once the backend has finished, before the response ends: a push's deployment
 * is queued there, so a client that lists deployments right after `git push` returns sees it
 * (Git waits for the end of the response). A failing `beforeEnd` is logged by its owner; the
 * push itself has happened and is answered as it is.
 */
export function runBackend(ctx: Koa.Context, deps: Deps, projectId: string, rest: string, beforeEnd?: () => Promise<void>): Promise<void> {
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
    // The backend may exit before reading a (garbage) body; the broken pipe is not an error of ours.
    child.stdin.on('error', () => {});
    ctx.req.pipe(child.stdin);
    let head = Buffer.alloc(0);
    let headersDone = false;
    let replaced = false;
    child.stdout.on('data', (chunk: Buffer) => {
      if (headersDone) { if (!replaced) res.write(chunk); return; }
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) return;
      headersDone = true;
      const headers: [string, string][] = [];
      let status = 200;
      for (const line of head.subarray(0, end).toString().split('\r\n')) {
        const i = line.indexOf(':');
        const name = line.slice(0, i).trim();
        const value = line.slice(i + 1).trim();
        if (name.toLowerCase() === 'status') status = parseInt(value, 10) || 500;
        else headers.push([name, value]);
      }
      if (status >= 400) {
        replaced = true;
        sendError(res, status);
        return;
      }
      for (const [name, value] of headers) res.setHeader(name, value);
      res.statusCode = status;
      res.write(head.subarray(end + 4));
    });
    child.on('close', async () => {
      if (headersDone && !replaced) await beforeEnd?.().catch(() => undefined);
      if (!headersDone) sendError(res, 500);
      else if (!replaced) res.end();
      resolve();
    });
    child.on('error', () => {
      if (!res.headersSent) sendError(res, 500);
      else res.end();
      resolve();
    });
  });
}
