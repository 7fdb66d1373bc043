import vm from 'node:vm';
import t from 'tap';
import { collectGarbage } from '../src/collect-garbage.ts';

t.test('collectGarbage', async (t) => {
  t.test('should collect what a build left behind', async (t) => {
    const weak = new WeakRef({ state: new Array(100_000).fill('garbage') });
    // A weak reference's target survives until the current job ends; collect after it.
    await new Promise((resolve) => setImmediate(resolve));
    collectGarbage();
    t.equal(weak.deref(), undefined, 'the unreferenced object is gone');
  });

  t.test('should leave no gc function to anything else', async (t) => {
    collectGarbage();
    t.equal(typeof (globalThis as { gc?: unknown }).gc, 'undefined');
    t.equal(vm.runInNewContext('typeof gc'), 'undefined', 'nor in a context made afterwards');
  });
});
