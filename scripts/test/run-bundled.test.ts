import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';

const root = fileURLToPath(new URL('../../', import.meta.url));
const launcher = path.join(root, 'scripts/bin/run-bundled.mjs');

interface Run { code: number | null; stdout: string; stderr: string }

/** Runs `node <args>` from the repository root with `env` added. */
function node(args: string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: root, env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => { stdout += c.toString(); });
    child.stderr.on('data', (c: Buffer) => { stderr += c.toString(); });
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const made: string[] = [];
const tmp = (prefix: string) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  made.push(dir);
  return dir;
};

/** The bundle folders (one per source state) the launcher keeps for `entry`. */
function bundles(cache: string): string[] {
  return fs.readdirSync(cache).flatMap((d) => fs.readdirSync(path.join(cache, d)).filter((f) => f !== 'manifest.json').map((f) => `${d}/${f}`)).sort();
}

t.test('run-bundled', async (t) => {
  t.teardown(() => { for (const dir of made) fs.rmSync(dir, { recursive: true, force: true }); });
  await t.test('should answer keys and orgs exactly as through tsx', async (t) => {
    const cache = tmp('folio-cli-cache-');
    const env = { DATA_DIR: tmp('folio-cli-data-'), FOLIO_CLI_CACHE_DIR: cache };
    const cases = [
      ['scripts/src/keys.ts', '--help'],
      ['scripts/src/orgs.ts', 'create', 'acme', '--plan', 'pro'],
      ['scripts/src/orgs.ts', 'list'],
      ['scripts/src/keys.ts', 'list', '--org', 'nope'],
      ['scripts/src/keys.ts', 'list'],
    ];
    for (const [file, ...args] of cases) {
      const bundled = await node([launcher, file, ...args], env);
      const direct = await node(['--import', 'tsx', file, ...args], { ...env, DATA_DIR: env.DATA_DIR });
      // `create` is not idempotent: the direct run answers for the second organization of that name.
      if (args[0] === 'create') {
        t.same(bundled, { code: 0, stdout: 'created organization acme on the pro plan\n', stderr: '' });
        t.same(direct, { code: 1, stdout: '', stderr: 'error: org: "acme" already exists\n' });
        continue;
      }
      t.same(bundled, direct, `${file} ${args.join(' ')}`);
    }
    const list = await node([launcher, 'scripts/src/orgs.ts', 'list'], env);
    t.match(JSON.parse(list.stdout), [{ handle: 'acme', plan: 'pro' }]);
    t.same(await node([launcher, 'scripts/src/keys.ts', 'list', '--org', 'nope'], env), { code: 1, stdout: '', stderr: 'error: organization "nope" not found\n' });
    t.equal(bundles(cache).length, 2, 'one bundle for each command');
  });

  await t.test('should reuse the cached bundle and rebuild it when a source changes', async (t) => {
    const cache = tmp('folio-cli-cache-');
    const dir = tmp('folio-cli-src-');
    fs.writeFileSync(path.join(dir, 'word.ts'), 'export const word: string = "first";\n');
    fs.writeFileSync(path.join(dir, 'main.ts'), 'const { word } = await import("./word.ts");\nconsole.log(`${word} ${process.argv.slice(2).join(",")}`);\n');
    const run = () => node([launcher, path.join(dir, 'main.ts'), 'a', '--b'], { FOLIO_CLI_CACHE_DIR: cache });

    t.same(await run(), { code: 0, stdout: 'first a,--b\n', stderr: '' });
    const [built] = bundles(cache);
    const marker = path.join(cache, built, 'marker');
    fs.writeFileSync(marker, '');
    t.same(await run(), { code: 0, stdout: 'first a,--b\n', stderr: '' });
    t.same(bundles(cache), [built], 'no second bundle');
    t.ok(fs.existsSync(marker), 'the same bundle ran');

    fs.writeFileSync(path.join(dir, 'word.ts'), 'export const word: string = "second";\n');
    t.same(await run(), { code: 0, stdout: 'second a,--b\n', stderr: '' });
    t.equal(bundles(cache).length, 2, 'a new bundle for the new sources');
  });

  await t.test('should only make the bundle with --prepare, and run the command from it afterwards', async (t) => {
    const cache = tmp('folio-cli-cache-');
    const dir = tmp('folio-cli-src-');
    fs.writeFileSync(path.join(dir, 'main.ts'), 'const n: number = 2;\nconsole.log(`ran ${n}`);\n');
    t.same(await node([launcher, '--prepare', path.join(dir, 'main.ts')], { FOLIO_CLI_CACHE_DIR: cache }), { code: 0, stdout: '', stderr: '' }, 'bundled, not run');
    const [built] = bundles(cache);
    t.ok(built, 'a bundle was made');
    t.same(await node([launcher, path.join(dir, 'main.ts')], { FOLIO_CLI_CACHE_DIR: cache }), { code: 0, stdout: 'ran 2\n', stderr: '' });
    t.same(bundles(cache), [built], 'the prepared bundle ran');
    fs.writeFileSync(path.join(dir, 'broken.ts'), 'export const = ;\n');
    const failed = await node([launcher, '--prepare', path.join(dir, 'broken.ts')], { FOLIO_CLI_CACHE_DIR: cache });
    t.equal(failed.code, 1, 'a command that cannot be bundled fails the preparation');
    t.match(failed.stderr, /could not bundle/);
  });

  await t.test('should leave installed packages out with --packages=external and keep each module\'s own import.meta.url', async (t) => {
    const cache = tmp('folio-cli-cache-');
    const dir = tmp('folio-cli-src-');
    // An installed package, as a module of the project finds one.
    const pkg = path.join(dir, 'node_modules', 'shout');
    fs.mkdirSync(pkg, { recursive: true });
    fs.writeFileSync(path.join(pkg, 'package.json'), '{ "name": "shout", "type": "module", "main": "loud.js" }\n');
    fs.writeFileSync(path.join(pkg, 'loud.js'), 'export const shout = (s) => `${s.toUpperCase()}!`;\n');
    fs.writeFileSync(path.join(pkg, 'quiet.js'), 'export const shout = (s) => `${s}.`;\n');
    fs.mkdirSync(path.join(dir, 'lib'));
    fs.writeFileSync(path.join(dir, 'lib', 'note.txt'), 'next to its module\n');
    fs.writeFileSync(path.join(dir, 'lib', 'note.ts'), [
      'import fs from "node:fs";',
      'const byUrl = fs.readFileSync(new URL("./note.txt", import.meta.url), "utf8");',
      'const byPath = fs.readFileSync(`${import.meta.dirname}/note.txt`, "utf8");',
      'export const note: string = byUrl === byPath && import.meta.filename.endsWith("note.ts") ? byUrl.trim() : "elsewhere";',
    ].join('\n'));
    fs.writeFileSync(path.join(dir, 'main.ts'), 'import { shout } from "shout";\nimport { note } from "./lib/note.ts";\nconsole.log(`${shout(note)} ${"import.meta.url"}`);\n');
    const run = (...options: string[]) => node([launcher, ...options, path.join(dir, 'main.ts')], { FOLIO_CLI_CACHE_DIR: cache });
    const mainOf = (bundle: string) => fs.readFileSync(path.join(cache, bundle, 'main.mjs'), 'utf8');

    t.same(await run('--packages=external'), { code: 0, stdout: 'NEXT TO ITS MODULE! import.meta.url\n', stderr: '' });
    const [external] = bundles(cache);
    t.ok(mainOf(external).includes(JSON.stringify(path.join(pkg, 'loud.js'))), 'the package is imported from its installed file');
    t.notOk(mainOf(external).includes('toUpperCase'), 'the package\'s code is not in the bundle');
    // A reinstall that resolves the package to another file makes a new bundle.
    fs.writeFileSync(path.join(pkg, 'package.json'), '{ "name": "shout", "type": "module", "main": "quiet.js" }\n');
    t.same(await run('--packages=external'), { code: 0, stdout: 'next to its module. import.meta.url\n', stderr: '' });
    t.equal(bundles(cache).length, 2, 'rebuilt after the package changed');
    t.same(await run(), { code: 0, stdout: 'next to its module. import.meta.url\n', stderr: '' });
    const inside = bundles(cache).find((b) => !b.startsWith(external.split('/')[0]));
    t.ok(inside && mainOf(inside).includes('${s}.'), 'without the option the package is bundled');
    t.same(await node([launcher, '--packages=none', path.join(dir, 'main.ts')]), {
      code: 2, stdout: '', stderr: 'usage: node scripts/bin/run-bundled.mjs [--packages=external] [--cache-dir=<dir>] [--prepare] <command.ts> [args…]\n',
    });
  });

  await t.test('should start a child TypeScript entry the way the command was started, bundled or through tsx', async (t) => {
    const dir = tmp('folio-cli-src-');
    fs.writeFileSync(path.join(dir, 'package.json'), '{ "type": "module" }\n');
    fs.writeFileSync(path.join(dir, 'word.ts'), 'export const word: string = "typed";\n');
    fs.writeFileSync(path.join(dir, 'child.ts'), 'import { word } from "./word.ts";\nconsole.log(`child ${word} ${process.argv.slice(2).join(",")}`);\n');
    const parent = (broken: boolean) => [
      broken ? 'if (process.env.NEVER_SET_ANYWHERE) await import("./missing.ts");' : '',
      'import { spawnSync } from "node:child_process";',
      `import { nodeEntryArgs } from ${JSON.stringify(path.join(root, 'builder/src/node-entry-args.ts'))};`,
      // A scrubbed environment, as the builder gives its children: the cache is passed in the arguments.
      'const r = spawnSync(process.execPath, [...nodeEntryArgs(new URL("./child.ts", import.meta.url).pathname), "x"], { env: { PATH: process.env.PATH }, encoding: "utf8" });',
      'process.stdout.write(r.stdout + r.stderr);',
    ].join('\n');
    for (const broken of [false, true]) {
      const cache = tmp('folio-cli-cache-');
      fs.writeFileSync(path.join(dir, 'main.ts'), parent(broken));
      t.same(await node([launcher, '--packages=external', path.join(dir, 'main.ts')], { FOLIO_CLI_CACHE_DIR: cache }), { code: 0, stdout: 'child typed x\n', stderr: '' }, broken ? 'through tsx' : 'bundled');
      // Bundled, the child ran from a bundle of its own in the parent's cache; through tsx, nothing was bundled.
      t.same(fs.readdirSync(cache).map((d) => d.replace(/-[0-9a-f]{8}$/, '')).sort(), broken ? ['main'] : ['child', 'main']);
    }
  });

  await t.test('should run through tsx when esbuild cannot bundle the command', async (t) => {
    const cache = tmp('folio-cli-cache-');
    const dir = tmp('folio-cli-src-');
    // esbuild refuses an import it cannot resolve, even one that never runs; tsx loads lazily.
    fs.writeFileSync(path.join(dir, 'package.json'), '{ "type": "module" }\n');
    fs.writeFileSync(path.join(dir, 'main.ts'), 'if (process.env.NEVER_SET_ANYWHERE) await import("./missing.ts");\nconst n: number = 2;\nconsole.log(`ran ${n}`);\n');
    t.same(await node([launcher, path.join(dir, 'main.ts')], { FOLIO_CLI_CACHE_DIR: cache, FOLIO_CLI_DEBUG: '1' }), {
      code: 0,
      stdout: 'ran 2\n',
      stderr: `run-bundled: Build failed with 1 error:\n${path.relative(root, path.join(dir, 'main.ts'))}:1:49: ERROR: Could not resolve "./missing.ts"; running through tsx\n`,
    });
  });
});
