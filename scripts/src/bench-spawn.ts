/**
 * `npm run bench:spawn [-- --mb 400]`: what starting one process costs the process that starts it,
 * afterwards. Fills `--mb` of memory, starts `git --version` from this process and then through
 * the control plane's process helper (control-plane/src/git/process-starter.ts), and after each
 * writes one byte per page of that memory: prints the page faults and CPU the writes took. A
 * fork leaves every page of the parent copy-on-write, so each page written after it faults once.
 */
import { spawn } from 'node:child_process';
import os from 'node:os';
import { startProcess, warmProcessStarter } from '@folio/control-plane/git/process-starter.ts';
import { parseArgs } from './cli-args.ts';

const { flags } = parseArgs(process.argv.slice(2));
const MB = Number(flags.mb ?? 400);
warmProcessStarter();
const memory = Buffer.alloc(MB * 1024 * 1024, 1);

/** Writes one byte per 4 KB page of `memory`: page faults and CPU ms it took. */
function writePages(): { faults: number; cpuMs: number } {
  const faults = process.resourceUsage().minorPageFault;
  const cpu = process.cpuUsage();
  for (let at = 0; at < memory.length; at += 4096) memory[at]++;
  const used = process.cpuUsage(cpu);
  return { faults: process.resourceUsage().minorPageFault - faults, cpuMs: Math.round((used.user + used.system) / 1000) };
}

const finished = (proc: { on(event: 'close', listener: () => void): unknown; stdin: { end(): void } | null }) =>
  new Promise<void>((resolve) => { proc.on('close', () => resolve()); proc.stdin?.end(); });

writePages();
console.log(`load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}; ${MB} MB written after each start, one byte per page:`);
for (let round = 1; round <= 3; round++) {
  await finished(spawn('git', ['--version']));
  const direct = writePages();
  await finished(startProcess('git', ['--version'], { env: { PATH: process.env.PATH ?? '/usr/bin:/bin' } }));
  const helped = writePages();
  console.log(`  round ${round}: started here ${direct.faults} faults, ${direct.cpuMs} ms CPU; through the helper ${helped.faults} faults, ${helped.cpuMs} ms CPU`);
}
process.exit(0);
