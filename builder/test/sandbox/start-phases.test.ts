import t from 'tap';
import { syntheticPage } from '../../src/compile/synthetic-page.ts';
import { startSandbox } from '../../src/sandbox/sandbox-process.ts';
import { phaseDurations, StartPhases } from '../../src/sandbox/start-phases.ts';

const page = { sourcePath: 'docs/p.mdx', source: syntheticPage(5), contentRoot: 'docs/' };
const noFiles = { readFile: async () => undefined };
const budget = { cpuMs: 60_000, wallMs: 120_000 };

t.test('sandbox start phases', async (t) => {
  await t.test('should turn marks into per-phase durations', async (t) => {
    t.same(phaseDurations([{ name: 'node', wallMs: 200, cpuMs: 150 }, { name: 'modules', wallMs: 900, cpuMs: 700 }]), [
      { name: 'node', wallMs: 200, cpuMs: 150 },
      { name: 'modules', wallMs: 700, cpuMs: 550 },
    ]);
  });

  await t.test('should ignore malformed or oversized marks', async (t) => {
    t.same(phaseDurations('ready'), []);
    t.same(phaseDurations([{ name: 'node', wallMs: '1', cpuMs: 2 }]), []);
    t.same(phaseDurations(Array.from({ length: 9 }, (_, i) => ({ name: `p${i}`, wallMs: i, cpuMs: i }))), []);
    t.same(phaseDurations([{ name: 'x'.repeat(100), wallMs: 1, cpuMs: 1 }]), [{ name: 'x'.repeat(40), wallMs: 1, cpuMs: 1 }]);
  });

  await t.test('should mark wall time from the process start and its CPU time', async (t) => {
    const phases = new StartPhases();
    t.notOk(phases.has('one'));
    phases.mark('one');
    const [one] = phases.list();
    t.ok(phases.has('one'));
    t.equal(one.name, 'one');
    t.ok(one.wallMs > 0 && one.wallMs <= performance.now() + 1, 'within this process\'s life');
    t.ok(one.cpuMs > 0, 'this process has used CPU by now');
  });

  await t.test('should report its phases when ready and again with the first chunk', async (t) => {
    const box = startSandbox({ limits: { heapMb: 512 } });
    t.teardown(() => box.close());
    t.same(box.startPhases(), [], 'nothing before it is ready');
    await box.ready;
    t.same(box.startPhases().map((p) => p.name), ['node', 'modules', 'compiler']);
    const results = await box.compile([page], noFiles, budget) as Array<Record<string, unknown>>;
    t.ok('bodyHtml' in results[0]);
    const phases = box.startPhases();
    t.same(phases.map((p) => p.name), ['node', 'modules', 'compiler', 'first chunk']);
    for (const p of phases) t.ok(p.wallMs >= 0 && p.cpuMs >= 0, `${p.name}: durations, not negative`);
    t.ok(phases.find((p) => p.name === 'modules')!.cpuMs > 0, 'loading the compiler\'s modules takes CPU');
    await box.compile([{ ...page, sourcePath: 'docs/q.mdx' }], noFiles, budget);
    t.same(box.startPhases().map((p) => p.name), ['node', 'modules', 'compiler', 'first chunk'], 'later chunks add nothing');
  });
});
