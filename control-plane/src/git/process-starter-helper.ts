/**
 * The process helper (see process-starter.ts): starts the processes the control plane asks for
 * and relays their streams and exit over its IPC channel. It holds nothing else.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import type { FromHelper, ToHelper } from './process-starter.ts';

const children = new Map<number, ChildProcess>();
const send = (msg: FromHelper) => { if (process.connected) process.send!(msg); };

process.on('message', (msg: ToHelper) => {
  if (msg.t === 'spawn') {
    const child = spawn(msg.command, msg.args, { cwd: msg.cwd, env: msg.env, stdio: ['pipe', 'pipe', 'pipe'] });
    children.set(msg.id, child);
    // A process may exit before reading all of its input: the broken pipe is not an error.
    child.stdin!.on('error', () => {});
    child.stdout!.on('data', (data: Buffer) => send({ t: 'out', id: msg.id, data }));
    child.stderr!.on('data', (data: Buffer) => send({ t: 'err', id: msg.id, data }));
    child.on('error', (err: NodeJS.ErrnoException) => send({ t: 'error', id: msg.id, message: err.message, ...(err.code ? { code: err.code } : {}) }));
    child.on('close', (code) => {
      children.delete(msg.id);
      send({ t: 'close', id: msg.id, code });
    });
    return;
  }
  const child = children.get(msg.id);
  if (!child) return;
  if (msg.t === 'in') child.stdin!.write(msg.data);
  else if (msg.t === 'end') child.stdin!.end();
  else (msg.stream === 'out' ? child.stdout! : child.stderr!)[msg.t]();
});
// The control plane went away: so do the processes it started.
process.on('disconnect', () => {
  for (const child of children.values()) child.kill('SIGKILL');
  process.exit(0);
});
