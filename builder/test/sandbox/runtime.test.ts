import t from 'tap';
import { osIsolation, osWrapper, SANDBOX_CPU_SECONDS, sandboxCommand, sandboxNode, sandboxNodeArgs, sandboxUid } from '../../src/sandbox/runtime.ts';
import { probeTargets, runProbe } from './probe-helper.ts';

t.test('sandbox runtime', async (t) => {
  t.test('should deny every escape but its scratch folder with the permission model alone', async (t) => {
    const targets = await probeTargets();
    t.teardown(targets.close);
    // No operating-system layer: same user, same network. Only `env -u NODE_OPTIONS`.
    const results = await runProbe([...osWrapper({}), sandboxNode(), ...sandboxNodeArgs({ scratch: targets.scratch, heapMb: 256 })], targets);
    t.same(results, {
      'read /proc/self/environ': 'denied ERR_ACCESS_DENIED',
      'read parent environ': 'denied ERR_ACCESS_DENIED',
      'read secret file': 'denied ERR_ACCESS_DENIED',
      'list private dir': 'denied ERR_ACCESS_DENIED',
      'write outside scratch': 'denied ERR_ACCESS_DENIED',
      'write in scratch': 'allowed',
      spawn: 'denied ERR_ACCESS_DENIED',
      'worker thread': 'denied ERR_ACCESS_DENIED',
      'process.binding': 'denied ERR_ACCESS_DENIED',
      'connect tcp 127.0.0.1': 'denied ERR_ACCESS_DENIED',
      'fetch 127.0.0.1': 'denied ERR_ACCESS_DENIED',
      'dns lookup': 'denied ERR_ACCESS_DENIED',
      // The permission model has no rule for signals: the sandbox's own user and lockDown() cover it.
      'signal parent': 'allowed',
      inspector: 'denied ERR_ACCESS_DENIED',
    });
    t.equal(targets.connections(), 0, 'the server saw no connection');
  });

  const os = osIsolation();
  t.test('should deny files, the network and signals with the operating system layers alone', { skip: !(os.unshare && os.setpriv) && 'needs root with unshare and setpriv (a single machine or CI; a non-root container has only the permission model)' }, async (t) => {
    const uid = sandboxUid();
    const targets = await probeTargets(uid);
    t.teardown(targets.close);
    // The platform's own Node 20, without the permission model: only the namespace and the user.
    const results = await runProbe([...osWrapper({ uid, netns: true }), process.execPath], targets);
    t.same(results, {
      'read /proc/self/environ': 'allowed',
      'read parent environ': 'denied EACCES',
      'read secret file': 'denied EACCES',
      'list private dir': 'denied EACCES',
      'write outside scratch': 'denied EACCES',
      'write in scratch': 'allowed',
      // What only the permission model stops:
      spawn: 'allowed',
      'worker thread': 'allowed',
      'process.binding': 'allowed',
      'connect tcp 127.0.0.1': 'denied ENETUNREACH',
      'fetch 127.0.0.1': 'denied ENETUNREACH',
      'dns lookup': 'allowed',
      'signal parent': 'denied EPERM',
      inspector: 'allowed',
    });
    t.equal(targets.connections(), 0, 'the server saw no connection');
  });

  t.test('should start the sandbox with an empty environment, behind every layer this machine has', async (t) => {
    const { file, args } = sandboxCommand({ scratch: '/tmp/s', entry: '/x/entry.ts', heapMb: 512, uid: 200_001, netns: true });
    const command = [file, ...args];
    t.ok(command.includes('--permission'));
    t.ok(command.includes('--allow-fs-write=/tmp/s'));
    t.ok(command.includes('--max-old-space-size=512'));
    t.notOk(command.some((a) => a.startsWith('--allow-net') || a.startsWith('--allow-child-process') || a.startsWith('--allow-worker') || a.startsWith('--allow-wasi')));
    t.notOk(command.some((a) => /\/data\b|\.env/.test(a)), 'no data folder is readable');
    t.equal(command.includes('--net'), Boolean(os.unshare));
    t.equal(command.includes('--reuid=200001'), Boolean(os.setpriv));
    t.equal(command.at(-1), '/x/entry.ts');
    t.ok(command.includes(`--cpu=${SANDBOX_CPU_SECONDS}`), 'a kernel CPU-time cap outlives the build process\'s watchdog');
  });
});
