import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { syntheticPage } from '../../src/compile/synthetic-page.ts';
import { CODE_CACHE_ROOT, seedCodeCache } from '../../src/sandbox/code-cache.ts';
import { platformReadPaths, sandboxNodeArgs } from '../../src/sandbox/runtime.ts';
import { startSandbox } from '../../src/sandbox/sandbox-process.ts';
import { tempDir } from '../helpers/git-repo.ts';

const page = { sourcePath: 'docs/p.mdx', source: syntheticPage(3), contentRoot: 'docs/' };
const noFiles = { readFile: async () => undefined };
const budget = { cpuMs: 60_000, wallMs: 120_000 };

/** Every file under `dir` (relative path → bytes). */
function snapshot(dir: string): Map<string, string> {
  return new Map(fs.readdirSync(dir, { recursive: true }).map(String)
    .filter((rel) => fs.statSync(path.join(dir, rel)).isFile())
    .map((rel) => [rel, fs.readFileSync(path.join(dir, rel)).toString('base64')]));
}

t.test('sandbox code cache', async (t) => {
  const template = path.join(tempDir(), 'template');

  await t.test('should not record a cache from a sandbox that was killed', async (t) => {
    const box = startSandbox({ limits: { heapMb: 512 }, codeCache: { template, record: true } });
    await box.compile([page], noFiles, budget);
    await box.close();
    t.notOk(fs.existsSync(template));
  });

  await t.test('should record the template from a sandbox that compiled a page and ended normally', async (t) => {
    const box = startSandbox({ limits: { heapMb: 512 }, codeCache: { template, record: true } });
    await box.compile([page], noFiles, budget);
    await box.close(true);
    const [folder, ...more] = fs.readdirSync(template);
    t.same(more, []);
    t.match(folder, /^v\d+\.\d+\.\d+-.+-\d+$/, "Node's folder, named after its version, flags and user");
    const files = fs.readdirSync(path.join(template, folder));
    t.ok(files.length > 50, 'code of the compiler\'s modules');
    t.same(new Set(files.map((f) => fs.statSync(path.join(template, folder, f)).mode & 0o777)), new Set([0o644]), 'readable by a builder running as another user');
  });

  await t.test('should start a sandbox from its own copy, leaving the template as it was', async (t) => {
    const before = snapshot(template);
    const box = startSandbox({ limits: { heapMb: 512 }, codeCache: { template } });
    const [result] = await box.compile([page], noFiles, budget) as Array<{ title?: string }>;
    t.equal(result.title, 'Page 3');
    await box.close(true);
    t.same(snapshot(template), before);
  });

  await t.test('should copy the template under the name the sandbox\'s user looks for', async (t) => {
    const scratch = tempDir();
    const env = seedCodeCache(template, scratch, 123456);
    t.same(env, { NODE_COMPILE_CACHE: path.join(scratch, 'code-cache') });
    const [name] = fs.readdirSync(path.join(scratch, 'code-cache'));
    t.match(name, /-123456$/);
    t.same(seedCodeCache(path.join(scratch, 'none'), tempDir(), 1), {}, 'no template, no cache');
    // A template that cannot be copied (here a pipe in it; for a builder of another user, files it
    // may not read): the sandbox starts without a cache, and no half copy is left.
    const odd = path.join(tempDir(), 'odd');
    fs.mkdirSync(path.join(odd, 'v26.0.0-x64-0-0'), { recursive: true });
    execFileSync('mkfifo', [path.join(odd, 'v26.0.0-x64-0-0', 'pipe')]);
    const other = tempDir();
    t.same(seedCodeCache(odd, other, 1), {});
    t.same(fs.readdirSync(other), []);
  });

  await t.test('should keep the templates where sandboxes may read but never write', async (t) => {
    const args = sandboxNodeArgs({ scratch: '/tmp/scratch-x', heapMb: 512 });
    const writable = args.filter((a) => a.startsWith('--allow-fs-write=')).map((a) => a.slice('--allow-fs-write='.length));
    t.same(writable, ['/tmp/scratch-x']);
    const root = fs.realpathSync(path.dirname(path.dirname(CODE_CACHE_ROOT)));
    t.ok(platformReadPaths().some((p) => root === p || root.startsWith(`${p}/`)), 'inside the platform\'s read-only folders');
  });
});
