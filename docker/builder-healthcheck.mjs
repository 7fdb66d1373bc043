// Container health of a builder: the process rewrites HEALTH_FILE every few seconds while its
// event loop runs (builder/src/worker/health-file.ts). Exit 0 when the file is younger than
// HEALTH_MAX_AGE_MS (default 30000), 1 when it is older or missing (wedged or not started).
import { statSync } from 'node:fs';

const file = process.env.HEALTH_FILE;
const maxAge = Number(process.env.HEALTH_MAX_AGE_MS || 30_000);
if (!file) {
  console.error('unhealthy: HEALTH_FILE is not set');
  process.exit(1);
}
let age;
try {
  age = Date.now() - statSync(file).mtimeMs;
} catch {
  console.error(`unhealthy: ${file} does not exist`);
  process.exit(1);
}
if (age > maxAge) {
  console.error(`unhealthy: last sign of life ${Math.round(age / 1000)} s ago`);
  process.exit(1);
}
