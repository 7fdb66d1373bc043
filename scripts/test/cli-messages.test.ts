import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';

const root = fileURLToPath(new URL('../../', import.meta.url));
const script = (p: string) => path.join(root, p);

interface Run { code: number | null; stdout: string; stderr: string }

/** The commands whose npm scripts run them from a cached bundle (`scripts/bin/run-bundled.mjs`), with its options. */
const bundled = new Map([
  ['scripts/src/keys.ts', []],
  ['scripts/src/orgs.ts', []],
  ['builder/src/cli.ts', ['--packages=external']],
  ['builder/src/ci/main.ts', ['--packages=external']],
]);

/** Runs a command's file as `npm run` does (from its bundle, or through tsx), with `env` added. */
function run(file: string, args: string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve) => {
    const options = bundled.get(file);
    const node = options ? [script('scripts/bin/run-bundled.mjs'), ...options] : ['--import', 'tsx'];
    const child = spawn(process.execPath, [...node, script(file), ...args], { cwd: root, env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => { stdout += c.toString(); });
    child.stderr.on('data', (c: Buffer) => { stderr += c.toString(); });
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** A port something already listens on. */
async function takenPort(t: { teardown(fn: () => Promise<void>): void }): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return (server.address() as net.AddressInfo).port;
}

/** Starts `npm start` on `dataDir` and resolves once it prints the API address. */
function startPlatform(dataDir: string): Promise<{ child: ChildProcess; out: () => string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', script('scripts/src/start.ts')], {
    cwd: root, env: { ...process.env, DATA_DIR: dataDir, API_PORT: '0', SITE_PORT: '0', BUILDER_WORKERS: '0' },
  });
  let out = '';
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (c: Buffer) => { out += c.toString(); if (/Builders:/.test(out)) resolve({ child, out: () => out }); });
    child.stderr!.on('data', (c: Buffer) => { out += c.toString(); });
    child.on('close', (code) => reject(new Error(`npm start exited with ${code}:\n${out}`)));
  });
}

t.test('command-line messages', async (t) => {
  await t.test('should print help and exit 0 for every command', async (t) => {
    const commands: [string, string[], string][] = [
      ['scripts/src/start.ts', ['--help'], 'usage: npm start'],
      ['scripts/src/keys.ts', ['--help'], 'usage: npm run keys -- create --org <org>'],
      ['scripts/src/orgs.ts', ['-h'], 'usage: npm run orgs -- list |'],
      ['builder/src/cli.ts', ['--help'], 'usage: build-site <git-url|dir> --out <dir>'],
      ['builder/src/cli.ts', ['dev', '--help'], 'usage: dev <repo dir> [--port <n>] [--host <h>]'],
      ['builder/src/ci/main.ts', ['--help'], 'usage: ci-deploy [--dir <checkout>]'],
    ];
    const runs = await Promise.all(commands.map(([file, args]) => run(file, args)));
    runs.forEach((r, i) => {
      t.equal(r.code, 0, commands[i].join(' '));
      t.ok(r.stdout.startsWith(commands[i][2]), `${commands[i][0]} ${commands[i][1].join(' ')}: ${r.stdout.split('\n')[0]}`);
    });
  });

  await t.test('should name API_PORT or SITE_PORT in one line when the port is taken', async (t) => {
    const port = await takenPort(t);
    const [api, site] = await Promise.all([
      run('scripts/src/start.ts', [], { DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'folio-cli-')), API_PORT: String(port), SITE_PORT: '0', BUILDER_WORKERS: '0' }),
      run('scripts/src/start.ts', [], { DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'folio-cli-')), API_PORT: '0', SITE_PORT: String(port), BUILDER_WORKERS: '0' }),
    ]);
    t.same([api.code, api.stderr], [1, `error: Port ${port} on 127.0.0.1 is taken by another program; set API_PORT to a free port (for example API_PORT=${port + 1})\n`]);
    t.same([site.code, site.stderr], [1, `error: Port ${port} on 127.0.0.1 is taken by another program; set SITE_PORT to a free port (for example SITE_PORT=${port + 1})\n`]);
  });

  await t.test('should refuse a second platform on the same DATA_DIR, and list organizations and keys beside it', async (t) => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-cli-'));
    const first = await startPlatform(dataDir);
    t.teardown(() => { first.child.kill('SIGTERM'); });
    const env = { DATA_DIR: dataDir, API_PORT: '0', SITE_PORT: '0', BUILDER_WORKERS: '0' };
    const [second, orgs, keys, orgKeys] = await Promise.all([
      run('scripts/src/start.ts', [], env),
      run('scripts/src/orgs.ts', ['list'], env),
      run('scripts/src/keys.ts', ['list'], env),
      run('scripts/src/keys.ts', ['list', '--org', 'nobody'], env),
    ]);
    t.same([second.code, second.stderr], [1, `error: DATA_DIR ${dataDir} is in use by another Folio platform (process ${first.child.pid}); stop it first, or set DATA_DIR to another folder\n`]);
    t.same(JSON.parse(orgs.stdout), [{ handle: 'default', name: 'Default organization', plan: 'free', pending_plan: null }]);
    t.same(JSON.parse(keys.stdout), [], 'no key is made at first start: the owner creates keys in the dashboard');
    t.match(first.out(), /First start: created organization "default" \(free plan\)\. Open this one-time link to set its owner's email and password:\n {2}http:\/\/127\.0\.0\.1:\d+\/claim#token=[A-Za-z0-9_-]{43}\n/, 'the owner link is printed');
    t.same([orgKeys.code, orgKeys.stderr], [1, 'error: organization "nobody" not found\n']);
  });
});
