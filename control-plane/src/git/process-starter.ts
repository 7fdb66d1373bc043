/**
 * Starts the control plane's short-lived processes (`git` for every Git request) from a small
 * helper process of its own, instead of from the control plane itself.
 *
 * Why: starting a process forks the caller, and after a fork every page of memory the caller
 * writes takes a copy-on-write fault, however soon the child execs. The control plane holds the
 * embedded database and the analytics in its heap (1.4 GB after a million events); on the
 * machine measured, writing 400 MB after one spawn took 102,400 faults and 2.3-2.7 s of CPU.
 * The helper's heap stays a few megabytes, so the forks it makes cost nothing after.
 *
 * The helper relays each process's stdin, stdout, stderr and exit over its IPC channel; stdout
 * and stderr pause in the helper while the control plane's side is full, so a slow client still
 * holds `git` back as a pipe would. If the helper goes away, its processes end with an error and
 * the next start forks a new helper.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { PassThrough, Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';

/** From the control plane to the helper. */
export type ToHelper =
  | { t: 'spawn'; id: number; command: string; args: string[]; cwd?: string; env: Record<string, string> }
  | { t: 'in'; id: number; data: Uint8Array }
  | { t: 'end'; id: number }
  | { t: 'pause' | 'resume'; id: number; stream: 'out' | 'err' };

/** From the helper to the control plane. */
export type FromHelper =
  | { t: 'out' | 'err'; id: number; data: Uint8Array }
  | { t: 'close'; id: number; code: number | null }
  | { t: 'error'; id: number; message: string; code?: string };

/**
 * What the callers use of a started process: its three streams, `error` and `close (code)`.
 * `close` comes once stdout and stderr have both been read to their end, so a caller reads or
 * `resume()`s both, as it would drain a child process's pipes.
 */
export interface StartedProcess extends EventEmitter {
  stdin: Writable;
  stdout: PassThrough;
  stderr: PassThrough;
}

const HELPER = fileURLToPath(new URL('./process-starter-helper.ts', import.meta.url));

let helper: ChildProcess | undefined;

/** Refs the helper and its channel while it runs processes (their answers keep the caller alive), unrefs them when idle. */
function hold(child: ChildProcess, busy: boolean): void {
  const channel = (child as unknown as { channel?: { ref(): void; unref(): void } }).channel;
  if (busy) { child.ref(); channel?.ref(); } else { child.unref(); channel?.unref(); }
}
/** An `error` with no listener would throw in the helper's message handler: emitted only when heard. */
const fail = (proc: StartedProcess, err: Error) => { if (proc.listenerCount('error') > 0) proc.emit('error', err); };
let nextId = 0;
const running = new Map<number, StartedProcess>();
/** Streams (`<id> out|err`) whose process the helper was asked to pause. */
const paused = new Set<string>();

function helperProcess(): ChildProcess {
  if (helper && helper.connected) return helper;
  // None of the control plane's variables (secrets, database URL): every process gets its `env` from the caller.
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', ...(process.env.HOME ? { HOME: process.env.HOME } : {}) };
  const child = fork(HELPER, [], { env, serialization: 'advanced', stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  // Idle, it must not keep the control plane's process alive (see `hold`).
  hold(child, false);
  child.on('message', (msg: FromHelper) => {
    const proc = running.get(msg.id);
    if (!proc) return;
    if (msg.t === 'out' || msg.t === 'err') {
      const stream = msg.t === 'out' ? proc.stdout : proc.stderr;
      const key = `${msg.id} ${msg.t}`;
      if (!stream.write(Buffer.from(msg.data.buffer, msg.data.byteOffset, msg.data.byteLength)) && !paused.has(key)) {
        // Chunks already on their way still arrive; the helper stops reading the process meanwhile.
        paused.add(key);
        child.send({ t: 'pause', id: msg.id, stream: msg.t } satisfies ToHelper);
        stream.once('drain', () => {
          paused.delete(key);
          if (child.connected) child.send({ t: 'resume', id: msg.id, stream: msg.t } satisfies ToHelper);
        });
      }
    } else if (msg.t === 'error') {
      fail(proc, Object.assign(new Error(msg.message), msg.code ? { code: msg.code } : {}));
    } else if (msg.t === 'close') {
      running.delete(msg.id);
      paused.delete(`${msg.id} out`);
      paused.delete(`${msg.id} err`);
      if (running.size === 0) hold(child, false);
      proc.stdout.end();
      proc.stderr.end();
      // As a child process's 'close' does, it waits until both outputs have been read to their end:
      // the helper may have taken all of a process's output before the caller began to read it.
      void Promise.allSettled([finished(proc.stdout), finished(proc.stderr)]).then(() => proc.emit('close', msg.code));
    }
  });
  const lost = () => {
    if (helper === child) helper = undefined;
    paused.clear();
    for (const [id, proc] of running) {
      running.delete(id);
      fail(proc, new Error('the process helper ended'));
      proc.stdout.end();
      proc.stderr.end();
      proc.emit('close', null);
    }
  };
  child.on('exit', lost);
  child.on('error', lost);
  helper = child;
  return child;
}

/** Forks the helper now (at start-up, while the control plane's heap is small). */
export function warmProcessStarter(): void {
  helperProcess();
}

/** Starts `command` with exactly `env` (no inherited variables), through the helper. */
export function startProcess(command: string, args: string[], opts: { cwd?: string; env: Record<string, string> }): StartedProcess {
  const child = helperProcess();
  const id = nextId++;
  const send = (msg: ToHelper, done?: (err: Error | null) => void) => {
    if (!child.connected) { done?.(null); return; }
    child.send(msg, (err: Error | null) => done?.(err && null));
  };
  const stdin = new Writable({
    write(chunk: Buffer, _encoding, done) { send({ t: 'in', id, data: chunk }, done); },
    final(done) { send({ t: 'end', id }, done); },
  });
  const proc = Object.assign(new EventEmitter(), { stdin, stdout: new PassThrough(), stderr: new PassThrough() }) as StartedProcess;
  running.set(id, proc);
  hold(child, true);
  send({ t: 'spawn', id, command, args, ...(opts.cwd ? { cwd: opts.cwd } : {}), env: opts.env });
  return proc;
}
