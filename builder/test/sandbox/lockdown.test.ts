import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import t from 'tap';

const PROBE = fileURLToPath(new URL('../fixtures/sandbox/lockdown-probe.ts', import.meta.url));

t.test('lockDown', async (t) => {
  t.test('should take files, processes, native code and the network away from page code on its own', async (t) => {
    // The platform's Node 20 with no permission model: only lockDown() stands in the way.
    const out = execFileSync(process.execPath, ['--import=tsx', PROBE], { env: { PATH: process.env.PATH }, encoding: 'utf8' });
    t.same(JSON.parse(out.trim().split('\n').at(-1)!), {
      'getBuiltinModule fs': 'denied: The module "fs" is not available while compiling a page',
      'getBuiltinModule child_process': 'denied: The module "child_process" is not available while compiling a page',
      'getBuiltinModule module': 'denied: The module "module" is not available while compiling a page',
      'getBuiltinModule path': 'allowed',
      'process.dlopen': 'denied: process.dlopen is not available while compiling a page',
      'process.kill': 'denied: process.kill is not available while compiling a page',
      'process.binding': 'denied: process.binding is not available while compiling a page',
      fetch: 'denied: fetch is not available while compiling a page',
      'overwrite getBuiltinModule': 'denied: Cannot assign to read only property \'getBuiltinModule\' of object \'#<process>\'',
    });
  });
});
