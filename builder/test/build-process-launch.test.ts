import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { buildProcessArgs, buildProcessEnv } from '../src/build-process-launch.ts';

const FIXTURE = fileURLToPath(new URL('./fixtures/launch/report-start.ts', import.meta.url));

// Started as the CLI and the worker start a build process: checked in the started process itself.
t.test('a build process starts with a small young generation and allocators that hand memory back', { skip: !fs.existsSync('/proc/self/environ') && 'needs /proc' }, async (t) => {
  const env = buildProcessEnv({ PATH: process.env.PATH });
  const run = spawnSync(process.execPath, buildProcessArgs(FIXTURE), { env, encoding: 'utf8' });
  t.equal(run.status, 0, run.stderr);
  const started = JSON.parse(run.stdout) as { execArgv: string[]; allocators: string[]; secret: string | null };
  t.ok(started.execArgv.includes('--max-semi-space-size=8'), 'V8 semi-spaces of 8 MB');
  t.same(started.allocators, ['GLIBC_TUNABLES=glibc.malloc.hugetlb=1', 'MALLOC_ARENA_MAX=2', 'MIMALLOC_PURGE_DELAY=0']);
  t.equal(started.secret, null, 'nothing but the given environment and the allocators\' settings');
});

t.test('the given environment is kept, not widened', async (t) => {
  t.same(buildProcessEnv({ PATH: '/bin', TMPDIR: '/tmp/x' }), { PATH: '/bin', TMPDIR: '/tmp/x', MALLOC_ARENA_MAX: '2', MIMALLOC_PURGE_DELAY: '0', GLIBC_TUNABLES: 'glibc.malloc.hugetlb=1' });
});

t.test('glibc tunables already set are kept beside huge pages, and win', async (t) => {
  t.equal(buildProcessEnv({ GLIBC_TUNABLES: 'glibc.malloc.hugetlb=0' }).GLIBC_TUNABLES, 'glibc.malloc.hugetlb=1:glibc.malloc.hugetlb=0');
  t.equal(buildProcessEnv({ GLIBC_TUNABLES: 'glibc.malloc.tcache_count=0' }).GLIBC_TUNABLES, 'glibc.malloc.hugetlb=1:glibc.malloc.tcache_count=0');
});
