/**
 * The builder as a step in a customer's CI: creates a CI deployment of the checkout's commit
 * through the control plane (an API key with `deployments:trigger`), builds the checkout, and
 * publishes with the control plane's upload grants (store/granted-store.ts) and reports with the
 * same code the workers use (`runJob`). The run never holds storage or database credentials:
 * each grant writes one object of its deployment, briefly.
 */
import fs from 'node:fs';
import git from 'isomorphic-git';
import { appError, userError } from '../errors.ts';
import { isGitRepository } from '../git/repo-snapshot.ts';
import type { Compiler } from '../compile/index.ts';
import { ControlPlaneClient, type BuildJob, type JobReport } from '../worker/control-plane-client.ts';
import type { BuildProgress } from '../progress/progress-reporter.ts';
import { runJob } from '../worker/run-job.ts';
import type { CiOptions } from './ci-options.ts';
import { createGrantedStore } from '../store/granted-store.ts';

/** A CI deployment as the control plane creates it. */
export interface CiJob extends BuildJob {
  /** The job's object routes, relative to the control plane origin. */
  store: { url: string };
}

export interface CiDeployResult {
  job: CiJob;
  commit: string;
  /** `reported`: the report below was recorded; otherwise the deployment ended failed without one. */
  outcome: 'reported' | 'lease_lost' | 'released';
  report?: JobReport;
}

export interface CiDeployRun {
  /** Progress lines (default: none). */
  log?(line: string): void;
  /** Aborting hands the deployment back, which fails it. */
  signal?: AbortSignal;
  /** Build progress (steps, pages compiled); default none. */
  progress?: BuildProgress;
  compiler?: Compiler;
  /** How long to keep retrying while another build of the project runs; default 10 minutes. */
  busyWaitMs?: number;
  /** Pause between those retries; default 5 s. */
  busyRetryMs?: number;
}

/** The commit to record: `--commit`, else the checkout's `HEAD`, else `GITHUB_SHA`. */
export async function resolveCommit(opts: CiOptions): Promise<string> {
  if (opts.commit) return opts.commit;
  if (isGitRepository(opts.dir)) {
    return git.resolveRef({ fs, dir: opts.dir, ref: 'HEAD' }).catch((cause) => {
      throw userError('invalid_checkout', `${opts.dir}: Unexpected repository without a commit at HEAD; expected a checked-out commit`, { cause });
    });
  }
  if (opts.fallbackCommit) return opts.fallbackCommit;
  throw userError('invalid_checkout', `${opts.dir}: Unexpected folder that is not a Git checkout; expected one, or --commit / GITHUB_SHA`);
}

async function createDeployment(opts: CiOptions, commit: string, run: CiDeployRun): Promise<CiJob> {
  const deadline = Date.now() + (run.busyWaitMs ?? 600_000);
  for (;;) {
    let res: Response;
    try {
      res = await fetch(`${opts.apiUrl}/internal/v1/ci/deployments`, {
        method: 'POST',
        headers: { authorization: `Bearer ${opts.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ project_id: opts.projectId, commit_sha: commit }),
        signal: AbortSignal.timeout(30_000),
      });
    } catch (err) {
      throw appError('control_plane_unreachable', `The control plane at ${opts.apiUrl} did not answer`, err);
    }
    if (res.status === 201) return (await res.json()) as CiJob;
    const text = await res.text();
    let body: { error?: string; message?: string } = {};
    try { body = JSON.parse(text); } catch { /* not JSON: shown as text below */ }
    if (res.status === 409 && body.error === 'conflict' && Date.now() < deadline) {
      run.log?.(`another build of the project is running; retrying in ${Math.round((run.busyRetryMs ?? 5000) / 1000)} s`);
      await new Promise((r) => setTimeout(r, run.busyRetryMs ?? 5000));
      continue;
    }
    const reason = body.error ? `${body.error}: ${body.message}` : text.slice(0, 500);
    const err = `The control plane refused the deployment (${res.status} ${reason})`;
    throw res.status >= 500 ? appError('control_plane_error', err) : userError('deployment_refused', err);
  }
}

/** Creates, builds, publishes and reports one CI deployment. */
export async function ciDeploy(opts: CiOptions, run: CiDeployRun = {}): Promise<CiDeployResult> {
  const commit = await resolveCommit(opts);
  const job = await createDeployment(opts, commit, run);
  run.log?.(`deployment ${job.deployment_id} of ${job.project.slug} at ${commit}`);
  const store = createGrantedStore({ url: new URL(job.store.url, `${opts.apiUrl}/`).href, token: job.token, fencing: job.fencing });
  let report: JobReport | undefined;
  const outcome = await runJob(job, {
    client: new ControlPlaneClient(opts.apiUrl), store, compiler: run.compiler, signal: run.signal, progress: run.progress,
    source: { kind: 'dir', dir: opts.dir, ...(isGitRepository(opts.dir) ? { ref: commit } : {}) },
    onPhase: (phase) => run.log?.(`phase ${phase}`),
    onReport: (r) => { report = r; },
  });
  return { job, commit, outcome, ...(report ? { report } : {}) };
}


