/**
 * `npm start`: runs the platform on embedded defaults (or on the services the environment
 * names): the API with Git hosting and the internal build API, the site server, and
 * BUILDER_WORKERS builder worker processes. Prints the API base URL, the dashboard's and, while
 * the `default` organization has no owner, a one-time link that makes its opener the owner. A taken port or a data directory another platform uses stops it with one
 * line saying what to change.
 */
import { helpRequested } from './cli-args.ts';

const HELP = `usage: npm start

Runs the Folio platform: the API (API_PORT, default 4000), Git hosting, the site server
(SITE_PORT, default 4100) and BUILDER_WORKERS builder processes, with an embedded database and
site storage in DATA_DIR (default ./data) unless MONGODB_URI and S3_BUCKET are set. Every
variable is listed in docs/configuration.md.`;

if (helpRequested(process.argv.slice(2))) {
  console.log(HELP);
  process.exit(0);
}

const { AppError, bootstrap, dashboardOrigin, parseEnv } = await import('@folio/control-plane');
const { startPlatform } = await import('@folio/control-plane/platform.ts');
const { spawnWorkers } = await import('./spawn-workers.ts');

let env;
try {
  env = parseEnv();
} catch (err) {
  console.error((err as Error).message);
  process.exit(1);
}

let platform;
try {
  platform = await startPlatform({ env });
} catch (err) {
  // Expected start-up problems (a taken port, data in use) are one line; anything else keeps its trace.
  if (err instanceof AppError) { console.error(`error: ${err.message}`); process.exit(1); }
  throw err;
}
const first = await bootstrap(platform.cp.m, platform.cp.deps.env);
const workers = spawnWorkers(env.BUILDER_WORKERS, { controlPlaneUrl: platform.internalUrl, workerSecret: platform.workerSecret });
// Build the dashboard app now (seconds, once per version of its sources) so its first visitor does not wait.
const { dashboardBuild } = await import('@folio/control-plane/dashboard-static/build-dashboard.ts');
dashboardBuild().catch((err: Error) => console.error(`dashboard: ${err.message}${err.cause ? ` (${(err.cause as Error).message})` : ''}`));

console.log(`Folio API:    ${platform.cp.apiUrl}`);
console.log(`Sites:        ${env.siteUrlTemplate}  (site server on ${platform.site.url})`);
console.log(`Database:     ${platform.cp.db.embedded ? `embedded, data in ${env.dataDir}` : 'MONGODB_URI'}`);
console.log(`Builders:     ${env.BUILDER_WORKERS} worker process(es)`);
console.log(`Dashboard:    ${dashboardOrigin(platform.cp.deps.env)}/`);
if (first) {
  console.log('');
  console.log(first.created
    ? `First start: created organization "${first.org}" (free plan). Open this one-time link to set its owner's email and password:`
    : `Organization "${first.org}" has no owner yet. Open this one-time link to set the owner's email and password (earlier links no longer work):`);
  console.log(`  ${first.claimUrl}`);
  console.log('API keys are created in the dashboard (Settings, API keys); operators can also use `npm run keys`.');
}

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, async () => {
    if (stopping) return;
    stopping = true;
    await workers.stop();
    await platform.close();
    process.exit(0);
  });
}
