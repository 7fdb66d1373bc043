/**
 * `npm run bench:api`: requests/s of an authenticated `GET /v1/projects` against a bare Koa
 * handler, each server in its own process, measured side by side in one run (alternating
 * rounds, so machine noise hits both). The ratio is the figure that matters.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import { createInterface } from 'node:readline';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);

async function startTarget(mode: 'bare' | 'api'): Promise<{ child: ChildProcess; port: number; key: string }> {
  const child = spawn(process.execPath, ['--import=tsx', new URL('./bench/api-target.ts', import.meta.url).pathname, mode], { stdio: ['ignore', 'pipe', 'inherit'] });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`${mode} target exited with ${code}`)));
  });
  return { child, ...JSON.parse(line) };
}

async function load(port: number, path: string, headers: Record<string, string>): Promise<number> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const deadline = Date.now() + SECONDS * 1000;
  let done = 0;
  let failed = 0;
  const one = () => new Promise<void>((resolve) => {
    const req = http.request({ host: '127.0.0.1', port, path, headers, agent }, (res) => {
      if (res.statusCode !== 200) failed++;
      res.resume();
      res.on('end', () => { done++; resolve(); });
    });
    req.on('error', () => { failed++; resolve(); });
    req.end();
  });
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => { while (Date.now() < deadline) await one(); }));
  agent.destroy();
  if (failed) throw new Error(`${failed} requests failed`);
  return done / SECONDS;
}

const bare = await startTarget('bare');
const api = await startTarget('api');
try {
  const rates = { bare: [] as number[], api: [] as number[] };
  await load(api.port, '/v1/projects', { authorization: `Bearer ${api.key}` }); // warm-up
  for (let round = 0; round < ROUNDS; round++) {
    rates.bare.push(await load(bare.port, '/v1/projects', {}));
    rates.api.push(await load(api.port, '/v1/projects', { authorization: `Bearer ${api.key}` }));
  }
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const b = mean(rates.bare);
  const a = mean(rates.api);
  console.log(`bare Koa handler:              ${b.toFixed(0)} req/s`);
  console.log(`authenticated GET /v1/projects: ${a.toFixed(0)} req/s`);
  console.log(`ratio (API / bare):             ${(a / b).toFixed(3)}  (${CONCURRENCY} concurrent, ${ROUNDS}×${SECONDS}s each, alternating)`);
} finally {
  bare.child.kill();
  api.child.kill();
}
