/**
 * `npm run bench:cli [-- --runs 7] [-- --root <checkout>]`: start-up time of the command-line
 * commands as a user types them (`npm run keys -- list`, …), each run a fresh process, from spawn
 * to exit. Prints the first run (which builds a command's cached bundle when its sources
 * changed), then the median, fastest and slowest of `--runs` more, the median CPU time (user +
 * system, of npm and everything it started: on a loaded machine wall time is mostly waiting for
 * a core, CPU time much less so) and the load average. Needs bash (for `times`).
 *
 * The commands run on a new DATA_DIR holding one organization with one key (the embedded
 * database starts in the command's process, as when no platform is running). `--root` measures
 * another checkout of the project (with its dependencies installed), e.g. an older version.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from './cli-args.ts';

const { flags } = parseArgs(process.argv.slice(2));
const runs = Number(flags.runs ?? 7);
const root = typeof flags.root === 'string' ? path.resolve(flags.root) : fileURLToPath(new URL('../../', import.meta.url));
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-bench-cli-'));

interface Timing { wall: number; cpu: number }

/** bash's `times` line for its children (`0m0.812s 0m0.204s`) in ms of user + system time. */
function childCpu(times: string): number {
  const [user, sys] = (times.trim().split('\n').at(-1) ?? '').split(' ').map((v) => {
    const [, m, sec] = /^(\d+)m([\d.]+)s$/.exec(v) ?? [];
    return (Number(m) * 60 + Number(sec)) * 1000;
  });
  return user + sys;
}

/** Runs `npm run -s <args>` in `root`; resolves with its wall and CPU time in ms, rejects on a non-zero exit. */
function time(args: string[]): Promise<Timing> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const script = 'npm run -s "$@" > /dev/null; code=$?; times; exit $code';
    const child = spawn('bash', ['-c', script, 'bash', ...args], { cwd: root, env: { ...process.env, DATA_DIR: dataDir }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => { out += c.toString(); });
    child.stderr.on('data', (c: Buffer) => { err += c.toString(); });
    child.on('close', (code) => {
      if (code === 0) resolve({ wall: performance.now() - started, cpu: childCpu(out) });
      else reject(new Error(`npm run ${args.join(' ')} exited with ${code}:\n${err}`));
    });
  });
}

const load = () => os.loadavg().map((l) => l.toFixed(1)).join(' ');
const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

const commands: string[][] = [
  ['keys', '--', 'list'],
  ['orgs', '--', 'list'],
  ['keys', '--', '--help'],
  ['build-site', '--', '--help'],
  ['dev', '--', '--help'],
  ['ci-deploy', '--', '--help'],
  // npm alone (its built-in `env` script), for scale: the part no change to Folio can remove.
  ['env'],
];

await time(['orgs', '--', 'create', 'bench']);
await time(['keys', '--', 'create', '--org', 'bench', '--name', 'bench']);
console.log(`root ${root}, ${runs} runs per command`);
console.log(`load average before: ${load()} on ${os.availableParallelism()} cores`);
for (const command of commands) {
  const first = await time(command);
  const timings: Timing[] = [];
  for (let i = 0; i < runs; i++) timings.push(await time(command));
  const wall = timings.map((x) => x.wall).sort((a, b) => a - b);
  const cpu = timings.map((x) => x.cpu).sort((a, b) => a - b);
  const mid = Math.floor(runs / 2);
  console.log(`npm run ${command.join(' ').padEnd(24)} median ${s(wall[mid])} (min ${s(wall[0])}, max ${s(wall.at(-1)!)}, first run ${s(first.wall)}), CPU ${s(cpu[mid])}`);
}
console.log(`load average after: ${load()}`);
fs.rmSync(dataDir, { recursive: true, force: true });
