import t from 'tap';
import { BUILD_PROCESS_MB, cgroupMemoryLimit, poolSize, SANDBOX_MB } from '../../src/sandbox/pool-size.ts';

const GB = 1024 ** 3;
const MB = 1024 ** 2;

t.test('one sandbox per core, at most two', async (t) => {
  t.equal(poolSize({ cores: 1, totalBytes: 24 * GB }), 1);
  t.equal(poolSize({ cores: 2, totalBytes: 24 * GB }), 2);
  t.equal(poolSize({ cores: 16, totalBytes: 24 * GB }), 2);
});

t.test('no more sandboxes than the memory holds, the container\'s limit first', async (t) => {
  const forTwo = (BUILD_PROCESS_MB + 2 * SANDBOX_MB) * MB;
  t.equal(poolSize({ cores: 8, totalBytes: forTwo }), 2, 'room for two');
  t.equal(poolSize({ cores: 8, totalBytes: forTwo - 1 }), 1, 'a byte less: one');
  t.equal(poolSize({ cores: 8, totalBytes: 24 * GB, cgroupBytes: 1 * GB }), 1, 'a 1 GB container on a big machine');
  t.equal(poolSize({ cores: 8, totalBytes: 24 * GB, cgroupBytes: 2 * GB }), 2, 'a 2 GB container (the compose file\'s)');
  t.equal(poolSize({ cores: 8, totalBytes: 256 * MB }), 1, 'always at least one');
});

t.test('the control group\'s limit is read from cgroup v2, then v1', async (t) => {
  const files = (map: Record<string, string>) => (file: string) => {
    if (file in map) return map[file];
    throw Object.assign(new Error('ENOENT'), { code: 'ENOENT' });
  };
  t.equal(cgroupMemoryLimit(files({ '/sys/fs/cgroup/memory.max': '1073741824\n' })), GB);
  t.equal(cgroupMemoryLimit(files({ '/sys/fs/cgroup/memory.max': 'max\n' })), undefined, 'v2 without a limit');
  t.equal(cgroupMemoryLimit(files({ '/sys/fs/cgroup/memory/memory.limit_in_bytes': '2147483648' })), 2 * GB, 'v1');
  t.equal(cgroupMemoryLimit(files({ '/sys/fs/cgroup/memory/memory.limit_in_bytes': '9223372036854771712' })), undefined, 'v1 without a limit');
  t.equal(cgroupMemoryLimit(files({})), undefined, 'no control group files');
});
