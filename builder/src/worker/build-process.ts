/**
 * A project's build process, started by the worker (`run-build-process.ts`) and kept, idle, for
 * that project's next job. It holds the current job's build token and nothing else: no worker
 * secret, no storage or database credentials, an environment of `PATH`, `HOME` and locale only.
 * It clones, plans, renders and publishes; pages compile in sandbox processes below it. It
 * publishes with upload grants from the control plane's job routes (store/granted-store.ts), which
 * confine it to its project's prefixes and end with the lease. Its compiler and the pages it remembers are its one project's.
 *
 * In (IPC): `{ type: 'job', job, controlPlaneUrl, workDir }`, maybe `{ type: 'abort' }`.
 * Out: `{ type: 'phase', phase }`, and for each job last `{ type: 'outcome', outcome }`.
 */
import path from 'node:path';
import { createGrantedStore } from '../store/granted-store.ts';
import { createCompiler, type SandboxCompiler } from '../sandbox/index.ts';
import { LinkChecker } from '../links/link-check.ts';
import { PageMemory } from '../state/page-bodies.ts';
import { collectGarbage } from '../collect-garbage.ts';
import { ControlPlaneClient, type Job } from './control-plane-client.ts';
import { runJob } from './run-job.ts';

/** What the worker sends a build process. */
export interface BuildRequest { type: 'job'; job: Job; controlPlaneUrl: string; workDir: string }

let abort = new AbortController();
let compiler: SandboxCompiler | undefined;
let project: string | undefined;
const pageMemory = new PageMemory();
// Its project's link-check results: the next build re-checks only links that can have changed.
const linkChecker = new LinkChecker();
const send = (msg: unknown) => new Promise<void>((resolve) => { if (process.connected) process.send!(msg, () => resolve()); else resolve(); });

/** Idle this long after a job, the build process collects its garbage. */
const IDLE_COLLECT_MS = 1_000;
let idleCollection: NodeJS.Timeout | undefined;

async function runOne(msg: BuildRequest): Promise<void> {
  const { job, controlPlaneUrl } = msg;
  // One project per process: the worker starts another for another project.
  if (project !== undefined && project !== job.project.id) process.exit(1);
  project = job.project.id;
  abort = new AbortController();
  // Its sandboxes live as long as it does (the worker ends it when idle, and its sandboxes with it).
  // A sandbox started again by a process whose heap has grown forks that heap: every page the
  // build process writes afterwards takes a copy-on-write fault, a cost in CPU of the same order as
  // the sandbox's own start (figures: control-plane/docs/benchmarks.md, "Builder workers").
  compiler ??= await createCompiler({ log: (line) => console.error(line), idleMs: Number.POSITIVE_INFINITY });
  // The first sandbox starts while the repository is fetched.
  compiler.prepare();
  const store = createGrantedStore({ url: new URL(job.store.url, `${controlPlaneUrl}/`).href, token: job.token, fencing: job.fencing });
  const outcome = await runJob(job, {
    client: new ControlPlaneClient(controlPlaneUrl), compiler, pageMemory, linkChecker, signal: abort.signal, store,
    // One clone folder per project, kept between jobs so the next build fetches less.
    source: { kind: 'remote', url: job.source.url, branch: job.source.branch, token: job.source.token ?? undefined, workDir: path.join(msg.workDir, job.project.id) },
    onPhase: (phase) => void send({ type: 'phase', phase }),
  }).catch((err: unknown) => {
    console.error(`job ${job.deployment_id} could not be reported: ${(err as Error).message}`);
    return 'error' as const;
  });
  await send({ type: 'outcome', outcome });
  // The next job's llms-full.txt gets memory already touched (see `PublishedMemory.prepare`).
  pageMemory.files.prepare();
  // The garbage of this build is collected while the process waits for its next job, not in the
  // middle of that job's build; a job that comes sooner (pushes in a row) is not kept waiting for
  // it (a full collection of a 10,000-page site's state takes a few hundred ms).
  clearTimeout(idleCollection);
  idleCollection = setTimeout(collectGarbage, IDLE_COLLECT_MS);
}


let running: Promise<void> = Promise.resolve();
process.on('message', (msg: BuildRequest | { type: 'abort' }) => {
  if (msg.type === 'abort') abort.abort();
  else if (msg.type === 'job') {
    clearTimeout(idleCollection);
    running = running.then(() => runOne(msg));
  }
});
// The worker went away: its lease will lapse and another worker takes the job.
process.on('disconnect', () => process.exit(1));
