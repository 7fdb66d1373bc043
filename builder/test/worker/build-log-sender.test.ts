/** The live build log's batching: bounded requests and lines, a count for what did not fit, nothing more after a lost lease. */
import t from 'tap';
import { LeaseLostError } from '../../src/errors.ts';
import { BuildLogSender, MAX_PENDING_LOG_LINES } from '../../src/worker/build-log-sender.ts';
import { MAX_LOG_LINE_LENGTH, MAX_LOG_LINES_PER_REQUEST } from '../../src/worker/protocol.ts';

t.test('build log sender', async (t) => {
  await t.test('should send what waits in requests of at most 100 lines, cut long lines, and count what did not fit', async (t) => {
    const sent: string[][] = [];
    const log = new BuildLogSender(async (lines) => { sent.push(lines); }, { intervalMs: 60_000 });
    log.add('x'.repeat(MAX_LOG_LINE_LENGTH + 10));
    for (let i = 1; i < MAX_PENDING_LOG_LINES + 20; i++) log.add(`line ${i}`);
    await log.close();
    t.same(sent.map((b) => b.length), [100, 100, 100, 100, 100, 1]);
    t.ok(sent.every((b) => b.length <= MAX_LOG_LINES_PER_REQUEST));
    t.equal(sent[0][0], `${'x'.repeat(MAX_LOG_LINE_LENGTH - 1)}…`);
    t.same([sent[4].at(-1), sent[5]], ['line 499', ['… 20 more lines not sent while building']]);
    log.add('after close');
    await log.close();
    t.equal(sent.length, 6, 'nothing after close');
  });

  await t.test('should stop sending when the lease is lost, and lose only a failed request\'s lines otherwise', async (t) => {
    const sent: string[][] = [];
    let answer: Error | undefined = new Error('control plane unreachable');
    let lost = 0;
    const log = new BuildLogSender(async (lines) => { sent.push(lines); if (answer) throw answer; }, { intervalMs: 60_000, onLeaseLost: () => lost++ });
    log.add('a');
    await log.close();
    t.same([sent, lost], [[['a']], 0], 'a failed request is not the build\'s failure');
    const next = new BuildLogSender(async (lines) => { sent.push(lines); if (answer) throw answer; }, { intervalMs: 5, onLeaseLost: () => lost++ });
    answer = new LeaseLostError();
    next.add('b');
    await new Promise((resolve) => setTimeout(resolve, 50));
    next.add('c');
    await next.close();
    t.same([sent, lost], [[['a'], ['b']], 1], 'nothing after the 409');
  });
});
