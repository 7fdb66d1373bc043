import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { startHealthFile } from '../../src/worker/health-file.ts';

const CHECK = fileURLToPath(new URL('../../../docker/builder-healthcheck.mjs', import.meta.url));
const check = (env: Record<string, string>) => spawnSync(process.execPath, [CHECK], { env: { PATH: process.env.PATH, ...env }, encoding: 'utf8' });

t.test('health file', async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-health-'));
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
  const file = path.join(dir, 'alive');

  t.test('should write the file at once and pass the image\'s health check', async (t) => {
    const stop = startHealthFile(file, 60_000);
    t.teardown(stop);
    t.match(fs.readFileSync(file, 'utf8'), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z\n$/);
    const ok = check({ HEALTH_FILE: file });
    t.same([ok.status, ok.stderr], [0, '']);
  });

  t.test('should fail the health check when the file is stale, missing or unset', async (t) => {
    const old = new Date(Date.now() - 120_000);
    fs.utimesSync(file, old, old);
    const stale = check({ HEALTH_FILE: file });
    t.equal(stale.status, 1);
    // The check runs in its own process, which may take a few seconds to start on a busy machine.
    t.match(stale.stderr, /^unhealthy: last sign of life 1[2-3]\d s ago\n$/);
    const missing = check({ HEALTH_FILE: path.join(dir, 'nope') });
    t.same([missing.status, missing.stderr], [1, `unhealthy: ${path.join(dir, 'nope')} does not exist\n`]);
    const unset = check({});
    t.same([unset.status, unset.stderr], [1, 'unhealthy: HEALTH_FILE is not set\n']);
  });
});
