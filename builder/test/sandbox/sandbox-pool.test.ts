import t from 'tap';
import { createSandboxCompiler } from '../../src/sandbox/sandbox-pool.ts';
import type { CompiledPage, PageFailure } from '../../src/types.ts';

const page = (name: string, source: string) => ({ sourcePath: `docs/${name}.mdx`, source, contentRoot: 'docs/' });
const TIMEOUT = 'Page took too long to compile and run (an endless loop, or waiting on something that never comes); the limits are 1.5 s of CPU time and 3 s in all';
const bodies = (results: Array<CompiledPage | PageFailure>) => results.map((r) => ('bodyHtml' in r ? r.bodyHtml : r));

t.test('createSandboxCompiler', async (t) => {
  // A secret in the builder's environment that customer pages must not see.
  process.env.FOLIO_TEST_SECRET = 'hunter2';
  t.teardown(() => delete process.env.FOLIO_TEST_SECRET);
  const reads: string[] = [];
  const ctx = {
    async readFile(path: string) {
      reads.push(path);
      return path === 'snippets/note.mdx' ? 'From the **snippet**.\n' : undefined;
    },
  };

  t.test('should compile a batch in sandboxes, in input order, reading snippets through the builder', async (t) => {
    // Chunks of two pages: each chunk is one compile batch in a sandbox, with its own snippet read.
    const pool = createSandboxCompiler({ workers: 2, threshold: 3, chunk: 2 });
    t.teardown(() => pool.close());
    const results = await pool.compile([
      page('a', "import Note from '/snippets/note.mdx'\n\n<Note />\n"),
      page('b', 'Secret is {String(process.env.FOLIO_TEST_SECRET)}.\n'),
      page('c', '<Broken\n'),
      page('d', "import Note from '../snippets/note.mdx'\n\n<Note />\n"),
    ], ctx);
    t.same(bodies(results), [
      '<p>From the <strong>snippet</strong>.</p>',
      '<p>Secret is undefined.</p>',
      { sourcePath: 'docs/c.mdx', message: 'Unexpected end of file after name, expected a character that can start an attribute name, such as a letter, `$`, or `_`; whitespace before attributes; or the end of the tag', line: 2, column: 1 },
      '<p>From the <strong>snippet</strong>.</p>',
    ]);
    t.same(reads.sort(), ['snippets/note.mdx', 'snippets/note.mdx']);
    t.equal((results[0] as CompiledPage).urlPath, '/a');
    t.ok(pool.cpuMs() > 0, 'counts the sandboxes\' CPU time');
  });

  t.test('should fail only the page that loops, runs out of memory or ends its process, and live on', async (t) => {
    const pool = createSandboxCompiler({ workers: 1, threshold: 100, limits: { pageCpuMs: 1500, pageWallMs: 3000, heapMb: 160 } });
    t.teardown(() => pool.close());
    const fine = page('fine', '# Fine\n');
    const results = await pool.compile([
      page('loop', '{(() => { while (true) {} })()}\n'),
      fine,
      page('exit', '{process.exit(3)}\n'),
      page('wait', 'export const never = await new Promise(() => {})\n\nNever.\n'),
    ], ctx);
    t.same(bodies(results), [
      { sourcePath: 'docs/loop.mdx', message: TIMEOUT },
      '<h1 id="fine">Fine<a class="heading-anchor" href="#fine" aria-hidden="true" tabindex="-1">#</a></h1>',
      { sourcePath: 'docs/exit.mdx', message: 'Page ended its compile process (process.exit, a crash, or tampering with the compiler)' },
      { sourcePath: 'docs/wait.mdx', message: TIMEOUT },
    ]);
    t.same(bodies(await pool.compile([fine], ctx)), [bodies([results[1]])[0]], 'the next batch compiles');
    // The memory limit on its own pool with time limits no loaded machine reaches first: the
    // page must fail for its memory, not because filling 160 MB took longer than 3 s here.
    const roomy = createSandboxCompiler({ workers: 1, threshold: 100, limits: { pageCpuMs: 60_000, pageWallMs: 120_000, heapMb: 160 } });
    t.teardown(() => roomy.close());
    t.same(bodies(await roomy.compile([page('memory', '{(() => { const keep = []; for (;;) keep.push(new Array(1e6).fill(keep.length)); })()}\n'), fine], ctx)), [
      { sourcePath: 'docs/memory.mdx', message: 'Page used more memory than a page\'s compile may; the limit is 160 MB' },
      bodies([results[1]])[0],
    ], 'memory');
  });

  t.test('should refuse what a page reaches for beyond its sandbox, with a message naming no host path', async (t) => {
    const pool = createSandboxCompiler({ workers: 1, threshold: 100 });
    t.teardown(() => pool.close());
    const results = await pool.compile([
      page('env', "{process.getBuiltinModule('fs').readFileSync('/proc/self/environ', 'latin1')}\n"),
      page('spawn', "{String(process.getBuiltinModule('child_process').execSync('id'))}\n"),
      page('net', "export const res = await fetch('http://127.0.0.1:9/')\n"),
      page('throw', "{(() => { throw new Error('failed at /srv/secret/place and ' + import.meta.url) })()}\n"),
      page('huge', "{'x'.repeat(25 * 1024 * 1024)}\n"),
    ], ctx);
    t.same(bodies(results), [
      { sourcePath: 'docs/env.mdx', message: 'Unexpected error while running the page: The module "fs" is not available while compiling a page', line: 1, column: 1 },
      { sourcePath: 'docs/spawn.mdx', message: 'Unexpected error while running the page: The module "child_process" is not available while compiling a page', line: 1, column: 1 },
      { sourcePath: 'docs/net.mdx', message: 'Unexpected error while running the page: fetch is not available while compiling a page' },
      (results[3] as PageFailure),
      { sourcePath: 'docs/huge.mdx', message: 'Page output is 26 M characters; the limit is 20 M' },
    ]);
    t.match((results[3] as PageFailure).message, /^Unexpected error while running the page: failed at <path> and /);
    t.notMatch((results[3] as PageFailure).message, /\/srv\/|\/tmp\//);
  });

  t.test('should end idle sandboxes and start new ones for the next batch', async (t) => {
    const pool = createSandboxCompiler({ workers: 1, threshold: 100, idleMs: 200 });
    t.teardown(() => pool.close());
    const first = await pool.compile([page('x', 'X\n')], ctx);
    t.equal(pool.running(), 1);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    t.equal(pool.running(), 0, 'no sandbox runs while idle');
    t.same(bodies(await pool.compile([page('x', 'X\n')], ctx)), bodies(first));
    t.equal(pool.running(), 1, 'a new sandbox compiled the second batch');
  });

  t.test('should keep sandboxes until closed when their idle time is Infinity', async (t) => {
    const pool = createSandboxCompiler({ workers: 1, threshold: 100, idleMs: Number.POSITIVE_INFINITY });
    t.teardown(() => pool.close());
    await pool.compile([page('x', 'X\n')], ctx);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    t.equal(pool.running(), 1, 'still running while idle (a timer of Infinity would have fired at once)');
    await pool.close();
    t.equal(pool.running(), 0);
  });

  t.test('should end all sandboxes but one once a big batch is done, and start them again for the next', async (t) => {
    const pool = createSandboxCompiler({ workers: 2, threshold: 2, chunk: 1, idleMs: Number.POSITIVE_INFINITY });
    t.teardown(() => pool.close());
    const batch = ['a', 'b', 'c', 'd'].map((name) => page(name, `${name.toUpperCase()}\n`));
    const first = await pool.compile(batch, ctx);
    t.equal(pool.running(), 2, 'both sandboxes compiled the batch');
    await new Promise((resolve) => setTimeout(resolve, 3000));
    t.equal(pool.running(), 1, 'one is kept for the next edit');
    t.same(bodies(await pool.compile([page('e', 'E\n')], ctx)), ['<p>E</p>']);
    t.equal(pool.running(), 1, 'an edit needs no second sandbox');
    t.same(bodies(await pool.compile(batch, ctx)), bodies(first));
    t.equal(pool.running(), 2, 'the next big batch started the second again');
  });

  t.test('should compile a batch marked first ahead of the chunks already waiting', async (t) => {
    // One sandbox, one page per chunk: pages compile one after another, each reading its own snippet.
    const pool = createSandboxCompiler({ workers: 1, threshold: 2, chunk: 1 });
    t.teardown(() => pool.close());
    const order: string[] = [];
    const reading = (first?: boolean) => ({ ...(first ? { first } : {}), async readFile(p: string) { order.push(p); return 'Snippet.\n'; } });
    const importing = (name: string) => page(name, `import S from '/snippets/${name}.mdx'\n\n<S />\n`);
    const batch = pool.compile([importing('a'), importing('b'), importing('c')], reading());
    const asked = pool.compile([importing('asked')], reading(true));
    t.same(bodies(await asked), ['<p>Snippet.</p>']);
    await batch;
    t.same(order, ['snippets/a.mdx', 'snippets/asked.mdx', 'snippets/b.mdx', 'snippets/c.mdx'], 'after the chunk already running, before the others');
  });
});
