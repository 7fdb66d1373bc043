import t from 'tap';
import { BuilderError } from '../../src/errors.ts';
import { checkCpu, checkDocsRoot, checkOutput, DEFAULT_LIMITS, limitsForPages, longestBuildMs, startDeadline } from '../../src/limits/build-limits.ts';

t.test('build limits', async (t) => {
  t.test('should let a docs folder of 25,030 files build, as a repository keeping every release\'s pages has', async (t) => {
    t.doesNotThrow(() => checkDocsRoot('docs/', 25_030, DEFAULT_LIMITS));
    const err = (() => { try { checkDocsRoot('docs/', 50_001, DEFAULT_LIMITS); } catch (e) { return e; } })();
    t.ok(err instanceof BuilderError);
    t.equal((err as BuilderError).message, 'docs folder docs/ has 50,001 files; the limit is 50,000');
  });

  t.test('should give a build the time of its pages on top of the base time, once they are listed', async (t) => {
    let clock = 0;
    const limits = { ...DEFAULT_LIMITS, maxBuildMs: 1000, buildMsPerPage: 10 };
    const deadline = startDeadline(limits, () => clock);
    clock = 1000;
    t.doesNotThrow(() => deadline.check());
    clock = 1001;
    t.throws(() => deadline.check(), { message: 'build ran longer than 1 s; the limit is 1 s' });
    deadline.allowPages(500);
    t.doesNotThrow(() => deadline.check(), '500 pages: 6 s');
    clock = 6001;
    t.throws(() => deadline.check(), { message: 'build ran longer than 6 s; the limit is 6 s' });
  });

  t.test('should allow CPU time per compiled page on top of the base', async (t) => {
    const limits = { ...DEFAULT_LIMITS, maxCpuMs: 1000, cpuMsPerPage: 100 };
    t.doesNotThrow(() => checkCpu(1000, limits));
    t.throws(() => checkCpu(1001, limits), { message: 'compiling pages used 1 s of CPU time; the limit is 1 s' });
    t.doesNotThrow(() => checkCpu(2000, limits, 10));
    t.throws(() => checkCpu(2001, limits, 10), { message: 'compiling pages used 2 s of CPU time; the limit is 2 s' });
  });

  t.test('should let a site publish more bytes the more pages it has', async (t) => {
    const limits = limitsForPages({ ...DEFAULT_LIMITS, maxOutputBytes: 1024 * 1024, outputBytesPerPage: 1024 * 1024 }, 3);
    t.equal(limits.maxOutputBytes, 4 * 1024 * 1024);
    t.doesNotThrow(() => checkOutput(4 * 1024 * 1024, limits));
    t.throws(() => checkOutput(4 * 1024 * 1024 + 1, limits), { message: 'site output is 4 MB; the limit is 4 MB' });
    t.equal(limitsForPages(DEFAULT_LIMITS, 24_803).maxOutputBytes, 1024 ** 3 + 24_803 * 256 * 1024, 'crewAI: 7.1 GB');
  });

  t.test('should bound the longest build by the largest site the limits accept', async (t) => {
    t.equal(longestBuildMs(DEFAULT_LIMITS), 10 * 60_000 + 50_000 * 120);
  });
});
