/**
 * Runs `fixtures/sandbox/probe.mjs` under a given command prefix and returns what each escape
 * attempt did. The targets are made fresh for each run: a secret file and a private folder the
 * sandbox must not read, a folder it must not write, its scratch folder, and a TCP server on
 * 127.0.0.1 it must not reach.
 */
import { spawn } from 'node:child_process';
import { chmodSync, chownSync, mkdtempSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const PROBE = fileURLToPath(new URL('../fixtures/sandbox/probe.mjs', import.meta.url));

export interface ProbeTargets { secretFile: string; privateDir: string; writeOutside: string; scratch: string; port: number }

/** Makes the targets; `uid` owns the scratch folder. Call `close()` when done. */
export async function probeTargets(uid?: number): Promise<ProbeTargets & { close(): void; connections(): number }> {
  const privateDir = mkdtempSync(path.join(os.tmpdir(), 'folio-private-'));
  chmodSync(privateDir, 0o700);
  const secretFile = path.join(privateDir, 'secret.txt');
  writeFileSync(secretFile, 'WORKER_SECRET=do-not-leak', { mode: 0o600 });
  const outside = mkdtempSync(path.join(os.tmpdir(), 'folio-outside-'));
  chmodSync(outside, 0o755);
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'folio-scratch-'));
  if (uid !== undefined) chownSync(scratch, uid, uid);
  let connections = 0;
  const server = net.createServer((socket) => { connections++; socket.destroy(); });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return { secretFile, privateDir, writeOutside: path.join(outside, 'pwned.txt'), scratch, port, connections: () => connections, close: () => server.close() };
}

/** Runs the probe as `[...command, PROBE, targets]` with an empty environment. */
export function runProbe(command: string[], targets: ProbeTargets): Promise<Record<string, string>> {
  return new Promise((resolve, reject) => {
    const [file, ...args] = command;
    const child = spawn(file, [...args, PROBE, JSON.stringify(targets)], { env: {}, cwd: targets.scratch, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => { out += c.toString(); });
    child.stderr.on('data', (c: Buffer) => { err += c.toString(); });
    child.on('error', reject);
    child.on('close', () => {
      try { resolve(JSON.parse(out.trim().split('\n').at(-1) ?? '')); } catch { reject(new Error(`probe printed no result: ${out}${err}`)); }
    });
  });
}
