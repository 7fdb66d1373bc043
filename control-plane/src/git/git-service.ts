/**
 * The smart HTTP protocol's requests of a managed repository, served by the Git service itself
 * rather than through `git http-backend`: the ref advertisement (`GET /info/refs?service=…`, kept
 * in memory while the refs are unchanged: ref-advertisement.ts) and the service's exchange
 * (`POST /git-upload-pack`, `POST /git-receive-pack`, run as `git <service> --stateless-rpc`).
 *
 * Why: `git http-backend` is one more process in front of the service on each of these requests,
 * four of them between a push and its build having fetched it. What it did for them is done here,
 * as it does it: the `# service=` line before a protocol v0/v1 advertisement, the content types
 * and no-cache headers, a gzipped request body inflated, a request body of another content type
 * refused with 415, and the committer identity a push's ref updates are logged with. A push's
 * `git gc --auto` (receive-pack runs it before it ends) runs once the push's answer has ended.
 */
import zlib from 'node:zlib';
import type Koa from 'koa';
import { runGit } from './git-cli.ts';
import { answerWithTrailer, sendError, type Trailer } from './http-backend.ts';
import { startProcess } from './process-starter.ts';
import { refAdvertisement, refreshAdvertisements, type GitService } from './ref-advertisement.ts';

/** The headers `git http-backend` sends so that no proxy keeps a Git answer. */
const NO_CACHE: Record<string, string> = {
  Expires: 'Fri, 01 Jan 1980 00:00:00 GMT',
  Pragma: 'no-cache',
  'Cache-Control': 'no-cache, max-age=0, must-revalidate',
};

const SERVICES: readonly GitService[] = ['git-upload-pack', 'git-receive-pack'];

/** The smart request `rest` names, if it is one: an advertisement of `service`, or its exchange. */
export function smartRequest(method: string, rest: string, query: Koa.Context['query']): { service: GitService; advertise: boolean } | undefined {
  const service = SERVICES.find((s) => s === query.service);
  if (method === 'GET' && rest === '/info/refs' && service) return { service, advertise: true };
  const posted = SERVICES.find((s) => rest === `/${s}`);
  if (method === 'POST' && posted) return { service: posted, advertise: false };
  return undefined;
}

/** A pkt-line holding `text`. */
const pktLine = (text: string) => Buffer.from(`${(Buffer.byteLength(text) + 4).toString(16).padStart(4, '0')}${text}`);

/** Answers a ref advertisement of the repository at `gitdir`. */
export async function serveAdvertisement(ctx: Koa.Context, gitdir: string, service: GitService): Promise<void> {
  const protocol = ctx.get('git-protocol');
  let refs: Buffer;
  try {
    refs = await refAdvertisement(gitdir, service, protocol);
  } catch {
    ctx.respond = false;
    sendError(ctx.res, 500);
    return;
  }
  ctx.respond = false;
  const res = ctx.res;
  res.statusCode = 200;
  for (const [name, value] of Object.entries(NO_CACHE)) res.setHeader(name, value);
  res.setHeader('Content-Type', `application/x-${service}-advertisement`);
  // Protocol v2 starts with the capabilities; v0 and v1 with the service's name (smart HTTP).
  const head = /(?:^|:)version=2(?::|$)/.test(protocol) ? [] : [pktLine(`# service=${service}\n`), Buffer.from('0000')];
  const body = Buffer.concat([...head, refs]);
  res.setHeader('Content-Length', body.length);
  res.end(body);
}

/**
 * Refuses a smart request with `message`, which `git` prints: a ref advertisement holding only an
 * `ERR` pkt-line (git answers "fatal: remote error: <message>"), where the protocol allows it. Git
 * prints the body of an HTTP error status in only some cases, so a refusal in a 403 alone reaches
 * the user as a bare "The requested URL returned error: 403".
 */
export function refuseAdvertisement(ctx: Koa.Context, service: GitService, message: string): void {
  ctx.respond = false;
  const res = ctx.res;
  res.statusCode = 200;
  for (const [name, value] of Object.entries(NO_CACHE)) res.setHeader(name, value);
  res.setHeader('Content-Type', `application/x-${service}-advertisement`);
  // The `# service=` line first in any protocol version: git looks for it to know the answer is smart.
  const body = Buffer.concat([pktLine(`# service=${service}\n`), Buffer.from('0000'), pktLine(`ERR ${message.replace(/[\r\n]+/g, ' ')}\n`)]);
  res.setHeader('Content-Length', body.length);
  res.end(body);
}

/**
 * Runs the service's exchange for one request (the request's body in, its answer out), then
 * `trailer` before the answer ends (see `answerWithTrailer`).
 */
export function serveExchange(ctx: Koa.Context, gitdir: string, service: GitService, trailer?: Trailer): Promise<void> {
  ctx.respond = false;
  const res = ctx.res;
  if (ctx.get('content-type') !== `application/x-${service}-request`) {
    ctx.req.resume();
    sendError(res, 415);
    return Promise.resolve();
  }
  const { write, finish } = answerWithTrailer(ctx, trailer);
  const protocol = ctx.get('git-protocol');
  return new Promise((resolve) => {
    // receive-pack's own housekeeping (`git gc --auto`) runs after the answer has ended, not
    // between the push's ref update and the answer (where the push's deployment waits for it).
    const receive = service === 'git-receive-pack';
    const child = startProcess('git', [...(receive ? ['-c', 'receive.autogc=false'] : []), service.slice('git-'.length), '--stateless-rpc', '.'], {
      cwd: gitdir,
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        ...(protocol ? { GIT_PROTOCOL: protocol } : {}),
        // As `git http-backend` sets them: the identity in the log of a pushed ref.
        GIT_COMMITTER_NAME: 'folio',
        GIT_COMMITTER_EMAIL: `folio@http.${ctx.ip}`,
      },
    });
    // The service may exit before reading a (garbage) body; the broken pipe is not an error of ours.
    child.stdin.on('error', () => {});
    const encoding = ctx.get('content-encoding');
    if (encoding === 'gzip' || encoding === 'x-gzip') {
      const inflate = zlib.createGunzip();
      // A body that is not gzip ends the service's input; the service then answers what it read.
      inflate.on('error', () => child.stdin.end());
      ctx.req.pipe(inflate).pipe(child.stdin);
    } else {
      ctx.req.pipe(child.stdin);
    }
    let started = false;
    const begin = () => {
      if (started) return;
      started = true;
      res.statusCode = 200;
      for (const [name, value] of Object.entries(NO_CACHE)) res.setHeader(name, value);
      res.setHeader('Content-Type', `application/x-${service}-result`);
    };
    child.stdout.on('data', (chunk: Buffer) => { begin(); write(chunk); });
    child.stderr.resume();
    let ended = false;
    const end = (code: number | null) => {
      if (ended) return;
      ended = true;
      // Nothing answered and a failure: the service could not start or refused the request outright.
      if (!started && code !== 0) {
        sendError(res, 500);
        resolve();
        return;
      }
      begin();
      void finish().then(() => {
        resolve();
        if (!receive) return;
        runGit(['gc', '--auto', '--quiet'], { cwd: gitdir, allowFail: true }).catch(() => undefined);
        // The refs moved: the next push's advertisement is made now, off any push's path.
        refreshAdvertisements(gitdir, 'git-receive-pack');
      });
    };
    child.on('close', end);
    child.on('error', () => end(null));
  });
}
