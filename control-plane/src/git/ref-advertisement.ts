/**
 * A managed repository's ref advertisement (the answer to `GET …/info/refs?service=…`, the first
 * request of every push and every fetch) kept in memory while the refs it lists stay the same.
 *
 * Why: each advertisement starts `git upload-pack` or `git receive-pack`, which read the refs and
 * print them; on a busy machine that process is tens of milliseconds on the path of every push
 * and every build's fetch. The refs only change by a push (or an upload's commit), so the answer
 * is kept under the repository's refs state (read-refs.ts: HEAD, the configuration and every ref,
 * read from the files) and served again for as long as that state is unchanged. A push changes
 * them: the fetch advertisement is made again when the push's job is handed to a worker, and the
 * push advertisement once the push is answered (`refreshAdvertisements`), each off the path of the
 * request that will ask for it, so that request finds its answer ready.
 *
 * An answer is kept only when the refs state read after the process ended is the one read before
 * it started: an advertisement made while a push moved a ref is served to its own request and
 * never kept. A repository in another ref format (reftable) is never kept.
 */
import { startProcess } from './process-starter.ts';
import { readRefsState } from './read-refs.ts';

export type GitService = 'git-upload-pack' | 'git-receive-pack';

/** What one advertisement depends on besides the refs: the service and the protocol the client asked for. */
interface Asked { service: GitService; protocol: string }

/** The `Git-Protocol` headers whose advertisements are kept: none, or a protocol version. */
const KEPT_PROTOCOL = /^(?:version=[012])?$/;

/** Repositories and askings kept at most (oldest dropped first). */
const MAX_KEPT = 512;

const kept = new Map<string, { state: string; bytes: Buffer }>();
const making = new Map<string, Promise<Buffer>>();
/** Per repository, what its clients asked for (refreshed after a push). */
const askedOf = new Map<string, Map<string, Asked>>();

const keyOf = (gitdir: string, a: Asked) => `${gitdir}\0${a.service}\0${a.protocol}`;

/** Runs the service with `--advertise-refs` and collects what it prints; rejects when it fails. */
function advertise(gitdir: string, { service, protocol }: Asked): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = startProcess('git', [service.slice('git-'.length), '--stateless-rpc', '--advertise-refs', '.'], {
      cwd: gitdir, env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...(protocol ? { GIT_PROTOCOL: protocol } : {}) },
    });
    const out: Buffer[] = [];
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.resume();
    child.on('error', reject);
    child.on('close', (code: number | null) => (code === 0 ? resolve(Buffer.concat(out)) : reject(new Error(`git ${service} --advertise-refs exited with ${code}`))));
    child.stdin.end();
  });
}

function keep(key: string, value: { state: string; bytes: Buffer }): void {
  kept.delete(key);
  kept.set(key, value);
  if (kept.size > MAX_KEPT) kept.delete(kept.keys().next().value!);
}

function remember(gitdir: string, asked: Asked): void {
  let list = askedOf.get(gitdir);
  if (!list) {
    askedOf.set(gitdir, list = new Map());
    if (askedOf.size > MAX_KEPT) askedOf.delete(askedOf.keys().next().value!);
  }
  list.set(`${asked.service}\0${asked.protocol}`, asked);
}

/**
 * The ref advertisement of the repository at `gitdir` for `service` (the service's own output,
 * without the HTTP `# service=` line), from memory when its refs are unchanged since it was made.
 * `protocol` is the client's `Git-Protocol` header ('' without one).
 */
export function refAdvertisement(gitdir: string, service: GitService, protocol: string): Promise<Buffer> {
  const asked = { service, protocol };
  // Only the protocols Git clients ask for are kept and made again: the header is the client's,
  // and any other value would make one more entry and one more process per push.
  if (!KEPT_PROTOCOL.test(protocol)) return advertise(gitdir, asked);
  remember(gitdir, asked);
  const state = readRefsState(gitdir);
  if (state === undefined) return advertise(gitdir, asked);
  const key = keyOf(gitdir, asked);
  const hit = kept.get(key);
  if (hit?.state === state) return Promise.resolve(hit.bytes);
  // The same refs asked again while being advertised (a refresh after a push, then the build's fetch): one process.
  const pending = making.get(`${key}\0${state}`);
  if (pending) return pending;
  const made = advertise(gitdir, asked).then((bytes) => {
    if (readRefsState(gitdir) === state) keep(key, { state, bytes });
    return bytes;
  }).finally(() => making.delete(`${key}\0${state}`));
  making.set(`${key}\0${state}`, made);
  return made;
}

/**
 * Makes again, in the background, the advertisements of `service` its clients asked of `gitdir`
 * before, so that the next request finds the answer made or being made: the build's fetch, when
 * its job is handed out (the worker's request follows within milliseconds, and the control plane
 * has nothing else to do for the push meanwhile); the next push's, once a push has been answered.
 */
export function refreshAdvertisements(gitdir: string, service: GitService): void {
  for (const asked of askedOf.get(gitdir)?.values() ?? []) {
    if (asked.service === service) refAdvertisement(gitdir, asked.service, asked.protocol).catch(() => undefined);
  }
}
