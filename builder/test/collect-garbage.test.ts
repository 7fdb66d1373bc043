import vm from 'node:vm';
import t from 'tap';
import { collectEvery, collectGarbage } from '../src/collect-garbage.ts';
import { forcedCollections } from './helpers/forced-collections.ts';

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

t.test('collectEvery', async (t) => {
  t.test('should collect once the pages counted reach the interval, then count again', async (t) => {
    const collect = collectEvery(10);
    t.equal(await forcedCollections(() => collect(6)), 0, '6 pages: none');
    t.equal(await forcedCollections(() => collect(4)), 1, '10 pages: one');
    t.equal(await forcedCollections(() => collect(9)), 0, '9 more: none yet');
    t.equal(await forcedCollections(() => collect(200)), 1, 'a batch past the interval: one');
  });
});
