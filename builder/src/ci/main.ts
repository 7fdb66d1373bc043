/**
 * `npm run ci-deploy -- --dir <checkout> --project <id>`, and the builder image's `ci-deploy`
 * command: builds a checked-out docs repository in the customer's CI and publishes it through
 * the control plane as a deployment recording the commit (options: `ci-options.ts`).
 *
 * Prints the deployment id and the site URL. Exit codes: 0 deployed (pages that failed to
 * compile are listed, and counted in the deployment), 1 the deployment failed or was refused,
 * 2 invalid options. After reading its settings the process keeps only harmless variables in
 * `process.env`: customer MDX runs here and finds no API key. SIGTERM/SIGINT (a cancelled CI
 * job) hands the deployment back, which fails it.
 */
import { BuilderError } from '../errors.ts';
import { scrubbedEnv } from '../limits/scrubbed-env.ts';
import { createProgress } from '../progress/progress-reporter.ts';
import { startHealthFile } from '../worker/health-file.ts';
import { CI_HELP, parseCiOptions, type CiOptions } from './ci-options.ts';

const out = (line: string) => process.stdout.write(`${line}\n`);
const err = (line: string) => process.stderr.write(`${line}\n`);

if (process.argv.slice(2).some((a) => a === '--help' || a === '-h')) {
  out(CI_HELP);
  process.exit(0);
}
const env = { ...process.env };
let opts: CiOptions;
try {
  opts = parseCiOptions(process.argv.slice(2), env);
} catch (e) {
  err((e as Error).message);
  process.exit(2);
}
if (env.HEALTH_FILE) startHealthFile(env.HEALTH_FILE);
const safe = scrubbedEnv(env);
for (const name of Object.keys(process.env)) if (!(name in safe)) delete process.env[name];

const abort = new AbortController();
for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => abort.abort());

try {
  // Loaded after the options are read, so `--help` and option errors answer quickly.
  const { ciDeploy } = await import('./ci-deploy.ts');
  const progress = createProgress(process.stderr);
  const { job, outcome, report } = await ciDeploy(opts, { log: err, signal: abort.signal, progress });
  progress.end();
  out(`Deployment: ${job.deployment_id}`);
  out(`Site:       ${job.site.url}`);
  if (outcome !== 'reported' || !report) {
    err(outcome === 'released' ? 'Stopped: the deployment was handed back and has failed' : 'The deployment\'s lease was lost; nothing more was reported');
    process.exit(1);
  }
  if (report.status === 'failed') {
    err(`Deployment failed: ${report.error ?? 'unknown reason'}`);
    process.exit(1);
  }
  out(`Status:     deployed (${report.pages_success}/${report.pages_total} pages${report.pages_failed ? `, ${report.pages_failed} failed` : ''})`);
  if (report.error) err(report.error);
  for (const w of report.warnings ?? []) err(`warning: ${w}`);
  process.exit(0);
} catch (e) {
  err(e instanceof BuilderError ? `error: ${e.toString()}` : `error: ${(e as Error).message}`);
  process.exit(1);
}
