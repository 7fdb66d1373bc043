/**
 * `npm start`: runs the platform on embedded defaults (or on the services the environment
 * names): the API, and prints its base URL and, on first start, a bootstrap API key.
 */
import { bootstrap, parseEnv, startControlPlane } from '@folio/control-plane';

let env;
try {
  env = parseEnv();
} catch (err) {
  console.error((err as Error).message);
  process.exit(1);
}

const cp = await startControlPlane({ env });
console.log(`Folio API: ${cp.apiUrl}`);
console.log(`Database: ${cp.db.embedded ? `embedded, data in ${env.dataDir}` : 'MONGODB_URI'}`);
const first = await bootstrap(cp.m);
if (first) {
  console.log('');
  console.log(`First start: created organization "${first.org}" (free plan) and this API key. It is shown only once:`);
  console.log(`  ${first.key}`);
  console.log('');
}

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, async () => {
    if (stopping) return;
    stopping = true;
    await cp.close();
    process.exit(0);
  });
}
