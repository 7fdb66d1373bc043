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

  await t.test('should link the template for a sandbox of another user, who may read the files but not write them', async (t) => {
    const scratch = tempDir();
    seedCodeCache(template, scratch, 123456);
    const [name] = fs.readdirSync(template);
    const [own] = fs.readdirSync(path.join(scratch, 'code-cache'));
    const file = fs.readdirSync(path.join(template, name))[0];
    const linked = fs.statSync(path.join(scratch, 'code-cache', own, file));
    const original = fs.statSync(path.join(template, name, file));
    if (process.getuid?.() !== 0) {
      t.not(linked.ino, original.ino, 'a builder that is not root runs sandboxes as itself: they get copies');
      return;
    }
    t.equal(linked.ino, original.ino, 'the same file, not a copy');
    t.equal(linked.uid, original.uid, "still the builder's");
    t.equal(linked.mode & 0o777, 0o644);
    t.equal(fs.statSync(path.join(scratch, 'code-cache', own)).uid, 123456, "the folder is the sandbox's own");
    // As the sandbox's user, through the link in its own scratch folder: refused by the kernel.
    const target = path.join(scratch, 'code-cache', own, file);
    const write = () => execFileSync('setpriv', ['--reuid=123456', '--regid=123456', '--clear-groups', '--', 'sh', '-c', `printf x >> '${target}'`], { stdio: 'pipe' });
    t.throws(write, 'the sandbox user cannot write the template through its link');
    t.same(fs.readFileSync(path.join(template, name, file)).length, original.size);
  });

  await t.test("should copy, not link, for a sandbox of the builder's own user or a file others may write", async (t) => {
    const [name] = fs.readdirSync(template);
    const file = fs.readdirSync(path.join(template, name))[0];
    const ino = fs.statSync(path.join(template, name, file)).ino;
    const own = tempDir();
    seedCodeCache(template, own, process.getuid!());
    const [mine] = fs.readdirSync(path.join(own, 'code-cache'));
    t.not(fs.statSync(path.join(own, 'code-cache', mine, file)).ino, ino, "a sandbox of the builder's user could write a shared file");
    const loose = path.join(tempDir(), 'loose');
    fs.cpSync(template, loose, { recursive: true });
    fs.chmodSync(path.join(loose, name, file), 0o666);
    const other = tempDir();
    seedCodeCache(loose, other, 123457);
    const [theirs] = fs.readdirSync(path.join(other, 'code-cache'));
    const copied = fs.statSync(path.join(other, 'code-cache', theirs, file));
    t.not(copied.ino, fs.statSync(path.join(loose, name, file)).ino, 'a file others may write is copied');
    if (process.getuid?.() === 0) t.equal(copied.uid, 123457, "the copy is the sandbox's");
  });

  await t.test('should keep the templates where sandboxes may read but never write', async (t) => {
    const args = sandboxNodeArgs({ scratch: '/tmp/scratch-x', heapMb: 512 });
    const writable = args.filter((a) => a.startsWith('--allow-fs-write=')).map((a) => a.slice('--allow-fs-write='.length));
    t.same(writable, ['/tmp/scratch-x']);
    const root = fs.realpathSync(path.dirname(path.dirname(CODE_CACHE_ROOT)));
    t.ok(platformReadPaths().some((p) => root === p || root.startsWith(`${p}/`)), 'inside the platform\'s read-only folders');
  });
});
