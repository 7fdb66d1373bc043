import { randomBytes } from 'node:crypto';
import t from 'tap';
import { startProcess, type StartedProcess } from '../../src/git/process-starter.ts';

const env = { PATH: process.env.PATH ?? '/usr/bin:/bin' };

/** Everything a started process printed, and how it ended. */
function outcome(proc: StartedProcess): Promise<{ stdout: Buffer; stderr: string; code: number | null; error?: string }> {
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  let error: string | undefined;
  proc.stdout.on('data', (d: Buffer) => out.push(d));
  proc.stderr.on('data', (d: Buffer) => err.push(d));
  proc.on('error', (e: Error) => { error = e.message; });
  return new Promise((resolve) => proc.on('close', (code: number | null) => resolve({ stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString(), code, ...(error ? { error } : {}) })));
}

t.test('process starter', async (t) => {
  await t.test('should start processes from a helper, not from this process', async (t) => {
    const proc = startProcess('sh', ['-c', 'echo $PPID'], { env });
    proc.stdin.end();
    const { stdout, code } = await outcome(proc);
    t.equal(code, 0);
    const parent = Number(stdout.toString().trim());
    t.ok(parent > 0, `a parent process id (${parent})`);
    t.not(parent, process.pid, 'the helper forked it: this process never forks');
  });

  await t.test('should pass stdin through and give back stdout, stderr and the exit code', async (t) => {
    const input = randomBytes(3 * 1024 * 1024);
    const cat = startProcess('cat', [], { env });
    cat.stdin.end(input);
    const echoed = await outcome(cat);
    t.equal(echoed.code, 0);
    t.ok(echoed.stdout.equals(input), '3 MB through and back, byte for byte');
    const failing = startProcess('sh', ['-c', 'printf oops >&2; exit 3'], { env });
    failing.stdin.end();
    t.same(await outcome(failing), { stdout: Buffer.alloc(0), stderr: 'oops', code: 3 });
  });

  await t.test('should run in the given folder with exactly the given environment', async (t) => {
    const proc = startProcess('sh', ['-c', 'pwd; echo "${HOME:-none} $ONLY"'], { cwd: '/', env: { ...env, ONLY: 'this' } });
    proc.stdin.end();
    t.equal((await outcome(proc)).stdout.toString(), '/\nnone this\n');
  });

  await t.test('should report a command that does not exist as an error', async (t) => {
    const proc = startProcess('folio-no-such-command', [], { env });
    proc.stdin.end();
    const result = await outcome(proc);
    t.match(result.error, /ENOENT/);
  });

  await t.test('should deliver all of a large output that is read late', async (t) => {
    const proc = startProcess('sh', ['-c', 'head -c 4000000 /dev/zero'], { env });
    proc.stdin.end();
    // Nothing read for a while: the output waits (paused in the helper once the reader is full).
    await new Promise((resolve) => setTimeout(resolve, 300));
    const { stdout, code } = await outcome(proc);
    t.equal(code, 0);
    t.equal(stdout.length, 4_000_000);
  });

  await t.test('should close only after output the process printed before it ended has been read', async (t) => {
    const proc = startProcess('sh', ['-c', 'printf done; printf warned >&2'], { env });
    proc.stdin.end();
    // The process has long ended (and the helper said so) before anything is read or listened to.
    await new Promise((resolve) => setTimeout(resolve, 300));
    t.same(await outcome(proc), { stdout: Buffer.from('done'), stderr: 'warned', code: 0 });
  });
});
