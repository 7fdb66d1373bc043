/**
 * `npm start`: runs the platform on embedded defaults (or on the services the environment
 * names): the API with Git hosting and the internal build API, the site server, and
 * BUILDER_WORKERS builder worker processes. Prints the API base URL and, on first start, a
 * bootstrap API key.
 */
import { bootstrap, parseEnv, type Env } from '@folio/control-plane';
import { startPlatform } from '@folio/control-plane/platform.ts';
import { spawnWorkers } from './spawn-workers.ts';

let env: Env;
try {
  env = parseEnv();
} catch (err) {
  console.error((err as Error).message);
  process.exit(1);
}

const platform = await startPlatform({ env });
const first = await bootstrap(platform.cp.m);
const workers = spawnWorkers(env.BUILDER_WORKERS, { controlPlaneUrl: platform.internalUrl, workerSecret: platform.workerSecret });

console.log(`Folio API:    ${platform.cp.apiUrl}`);
console.log(`Sites:        ${env.siteUrlTemplate}  (site server on ${platform.site.url})`);
console.log(`Database:     ${platform.cp.db.embedded ? `embedded, data in ${env.dataDir}` : 'MONGODB_URI'}`);
console.log(`Builders:     ${env.BUILDER_WORKERS} worker process(es)`);
if (first) {
  console.log('');
  console.log(`First start: created organization "${first.org}" (free plan) and this API key. It is shown only once:`);
  console.log(`  ${first.key}`);
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
