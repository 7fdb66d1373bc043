/* global AbortSignal */
// Container health of the control plane: the API answers its public OpenAPI document. Exit 0
// when it does with 200 within HEALTH_TIMEOUT_MS (default 4000), 1 otherwise. Plain Node, no tsx,
// so a check costs a few milliseconds of start-up.
const port = process.env.API_PORT || '4000';
const timeout = Number(process.env.HEALTH_TIMEOUT_MS || 4000);
try {
  const res = await fetch(`http://127.0.0.1:${port}/v1/openapi.json`, { signal: AbortSignal.timeout(timeout) });
  await res.arrayBuffer();
  if (res.status !== 200) {
    console.error(`unhealthy: GET /v1/openapi.json answered ${res.status}`);
    process.exit(1);
  }
} catch (err) {
  console.error(`unhealthy: ${err.message}`);
  process.exit(1);
}
