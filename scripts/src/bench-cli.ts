/**
 * `npm run bench:cli [-- --runs 7] [-- --root <checkout>]`: start-up time of the command-line
 * commands as a user types them (`npm run keys -- list`, …), each run a fresh process, from spawn
 * to exit. Prints the first run (which builds a command's cached bundle when its sources
 * changed), then the median, fastest and slowest of `--runs` more, and the load average: on a
 * shared machine the figures scale with it.
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
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** Runs `npm run -s <args>` in `root`; resolves with the wall time in ms, rejects on a non-zero exit. */
function time(args: string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(npm, ['run', '-s', ...args], { cwd: root, env: { ...process.env, DATA_DIR: dataDir }, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (c: Buffer) => { err += c.toString(); });
    child.on('close', (code) => {
      if (code === 0) resolve(performance.now() - started);
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
];

await time(['orgs', '--', 'create', 'bench']);
await time(['keys', '--', 'create', '--org', 'bench', '--name', 'bench']);
console.log(`root ${root}, ${runs} runs per command`);
console.log(`load average before: ${load()} on ${os.availableParallelism()} cores`);
for (const command of commands) {
  const first = await time(command);
  const times: number[] = [];
  for (let i = 0; i < runs; i++) times.push(await time(command));
  times.sort((a, b) => a - b);
  console.log(`npm run ${command.join(' ').padEnd(24)} median ${s(times[Math.floor(times.length / 2)])}  (min ${s(times[0])}, max ${s(times.at(-1)!)}, first run ${s(first)})`);
}
const node = await new Promise<number>((resolve) => {
  const started = performance.now();
  spawn(process.execPath, ['-e', '0']).on('close', () => resolve(performance.now() - started));
});
console.log(`for scale: an empty \`node -e 0\` took ${s(node)}`);
console.log(`load average after: ${load()}`);
fs.rmSync(dataDir, { recursive: true, force: true });
