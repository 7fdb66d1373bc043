import t from 'tap';
import { createProgress } from '../../src/progress/progress-reporter.ts';

/** A clock the test moves, and an output that records what was written. */
function setup(isTTY: boolean) {
  let now = 0;
  const written: string[] = [];
  const progress = createProgress({ isTTY, write: (text: string) => written.push(text) }, () => now);
  return { progress, written, at: (ms: number) => { now = ms; } };
}

t.test('progress reporter', async (t) => {
  await t.test('should write plain step and batch lines when not on a terminal', async (t) => {
    const { progress, written, at } = setup(false);
    at(300); progress.step('clone');
    at(400); progress.step('plan');
    at(4400); progress.compiled(200, 1000);
    at(8400); progress.compiled(400, 1000);
    at(9000); progress.step('compile');
    progress.end();
    t.same(written, [
      'step clone done in 0.3 s\n',
      'step plan done in 0.1 s\n',
      'compiled 200/1000 pages (50 pages/s)\n',
      'compiled 400/1000 pages (50 pages/s)\n',
      'step compile done in 8.6 s\n',
    ]);
  });

  await t.test('should redraw one line with rate and time left on a terminal, and clear it at the end', async (t) => {
    const { progress, written, at } = setup(true);
    at(300); progress.step('clone');
    at(400); progress.step('plan');
    at(4400); progress.compiled(200, 1000);
    at(20_400); progress.compiled(1000, 1000);
    progress.end();
    t.same(written, [
      '\r\x1b[Kplanning…',
      '\r\x1b[Kcompiling…',
      '\r\x1b[Kcompiling 200/1000 pages · 50 pages/s · about 16 s left',
      '\r\x1b[Kcompiling 1000/1000 pages · 50 pages/s',
      '\r\x1b[K',
    ]);
  });
});
