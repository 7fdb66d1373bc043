/**
 * Runs `git http-backend` (CGI) for one request of a managed repository and streams its answer
 * back: the dumb protocol's files (the smart protocol's requests are served by git-service.ts,
 * which shares the answer's trailer and the error shapes defined here). Successful answers pass
 * through untouched (Git clients read them); the backend's own error answers (plain text, e.g. a
 * 415 for a wrong Content-Type) are replaced by the API's `{ error, message }` body with the same
 * status, so every error the server sends has one shape.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { ServerResponse } from 'node:http';
import type Koa from 'koa';
import type { Deps } from '../http/route.ts';
import { reposDir } from './managed-repos.ts';
import { startProcess } from './process-starter.ts';

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

export function sendError(res: ServerResponse, backendStatus: number): void {
  const { status, body } = backendError(backendStatus);
  const text = JSON.stringify(body);
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(text));
  res.end(text);
}

/** Writes progress lines to a Git client (shown as `remote: <line>`). */
export type Progress = (line: string) => void;

/**
 * Runs after the backend finished, before the answer ends (a push's deployment is queued there,
 * so it exists when `git push` returns). With `progress` (the client asked for side-band messages
 * and the answer ends with its flush packet) lines it writes are shown by the client as
 * `remote: …`; without, it only queues.
 */
export type Trailer = (progress: Progress | undefined) => Promise<void>;

/** A side-band packet on band 2 (progress) carrying one line. */
export function progressPacket(line: string): Buffer {
  const payload = Buffer.concat([Buffer.from([2]), Buffer.from(`${line}\n`, 'utf8')]);
  return Buffer.concat([Buffer.from((payload.length + 4).toString(16).padStart(4, '0')), payload]);
}

const FLUSH = Buffer.from('0000');

let backendCommand: [string, string[]] | undefined;
/**
 * `git-http-backend` itself, from Git's exec path: `git http-backend` starts the `git` wrapper
 * first, one process more for each of a push's and a build's fetch's requests (tens of
 * milliseconds each on a busy machine). Found once; `git http-backend` when it is not there.
 */
function backend(): [string, string[]] {
  if (backendCommand) return backendCommand;
  try {
    const direct = path.join(execFileSync('git', ['--exec-path'], { encoding: 'utf8' }).trim(), 'git-http-backend');
    fs.accessSync(direct, fs.constants.X_OK);
    backendCommand = [direct, []];
  } catch {
    backendCommand = ['git', ['http-backend']];
  }
  return backendCommand;
}

/**
 * The answer's body as a Git service writes it, then `trailer`. To let the trailer talk to the
 * client, the last four bytes of the answer are held back: a `receive-pack` answer with side-band
 * ends with a flush packet, and progress packets written before it reach the client's terminal.
 * Made before the request's body is read (it looks at the first chunk for side-band).
 */
export function answerWithTrailer(ctx: Koa.Context, trailer?: Trailer): { write(chunk: Buffer): void; finish(): Promise<void> } {
  const res = ctx.res;
  // The client asks for side-band in the capabilities of its first command line (plain, not gzip).
  let sideband = false;
  if (trailer && !ctx.get('content-encoding')) {
    ctx.req.once('data', (chunk: Buffer) => { sideband = /\0[^\n]*\bside-band(-64k)?\b/.test(chunk.subarray(0, 1024).toString('latin1')); });
  }
  let held = Buffer.alloc(0);
  return {
    write(chunk) {
      if (!trailer) { res.write(chunk); return; }
      const all = Buffer.concat([held, chunk]);
      res.write(all.subarray(0, Math.max(0, all.length - 4)));
      held = all.subarray(Math.max(0, all.length - 4));
    },
    async finish() {
      if (trailer && sideband && held.equals(FLUSH)) {
        await trailer((line) => res.write(progressPacket(line))).catch(() => undefined);
        res.end(FLUSH);
        return;
      }
      // Without side-band the trailer only queues the deployment: still before the answer ends,
      // since Git waits for the end of the answer before `git push` returns.
      await trailer?.(undefined).catch(() => undefined);
      res.end(held);
    },
  };
}

/**
 * Pipes the request through `git http-backend` for `rest` (the path below `<project id>.git`).
 * The smart protocol's own requests (every push and fetch) are served without it
 * (git-service.ts); this serves the rest: the dumb protocol's files.
 */
export function runBackend(ctx: Koa.Context, deps: Deps, projectId: string, rest: string): Promise<void> {
  ctx.respond = false;
  const res = ctx.res;
  const { write, finish } = answerWithTrailer(ctx);
  return new Promise((resolve) => {
    const [command, args] = backend();
    const child = startProcess(command, args, {
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
    // Its messages are not shown to the client; unread, they would hold the backend (and 'close') back.
    child.stderr.resume();
    let head = Buffer.alloc(0);
    let headersDone = false;
    let replaced = false;
    child.stdout.on('data', (chunk: Buffer) => {
      if (headersDone) { if (!replaced) write(chunk); return; }
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
      write(head.subarray(end + 4));
    });
    child.on('close', () => {
      if (!headersDone) sendError(res, 500);
      else if (!replaced) { void finish().then(() => resolve()); return; }
      resolve();
    });
    child.on('error', () => {
      if (!res.headersSent) sendError(res, 500);
      else res.end();
      resolve();
    });
  });
}
