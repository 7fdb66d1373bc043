import t from 'tap';
import { timeSlicer } from '../../src/assistant/time-slice.ts';

/** Keeps the CPU busy for `ms` of wall time (one unit of work). */
const spin = (ms: number) => { const end = performance.now() + ms; while (performance.now() < end) { /* busy */ } };

t.test('time slicer', async (t) => {
  t.test('should let the event loop run what waits while work goes on longer than a slice', async (t) => {
    const slice = timeSlicer(4);
    let waited = 0;
    const waiting = setInterval(() => { waited++; }, 0);
    // 40 units of 1 ms: a counted batch of 64 would not have yielded once.
    for (let unit = 0; unit < 40; unit++) { spin(1); await slice(); }
    clearInterval(waiting);
    t.ok(waited > 0, `a timer ran ${waited} times during the work`);
  });

  t.test('should not yield within a slice', async (t) => {
    const slice = timeSlicer(60_000);
    t.equal(slice(), undefined);
  });
});
