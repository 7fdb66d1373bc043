import { readFileSync } from 'node:fs';
import t from 'tap';
import { createPoolCompiler } from '../../src/compile/worker-pool.ts';
import type { CompiledPage } from '../../src/types.ts';

t.test('createPoolCompiler', async (t) => {
  // A secret in the builder's environment that customer pages must not see in workers.
  process.env.FOLIO_TEST_SECRET = 'hunter2';
  t.teardown(() => delete process.env.FOLIO_TEST_SECRET);
  // Chunks of two pages: each chunk is one compile batch in a worker, with its own snippet read.
  const pool = await createPoolCompiler({ workers: 2, threshold: 3, chunk: 2 });
  t.teardown(() => pool.close());
  const reads: string[] = [];
  const ctx = {
    async readFile(path: string) {
      reads.push(path);
      return path === 'snippets/note.mdx' ? 'From the **snippet**.\n' : undefined;
    },
  };
  const inputs = [
    { sourcePath: 'docs/a.mdx', source: "import Note from '/snippets/note.mdx'\n\n<Note />\n", contentRoot: 'docs/' },
    { sourcePath: 'docs/b.mdx', source: 'Secret is {String(process.env.FOLIO_TEST_SECRET)}.\n', contentRoot: 'docs/' },
    { sourcePath: 'docs/c.mdx', source: '<Broken\n', contentRoot: 'docs/' },
    { sourcePath: 'docs/d.mdx', source: "import Note from '../snippets/note.mdx'\n\n<Note />\n", contentRoot: 'docs/' },
  ];

  t.test('should compile a big batch in workers, in input order, reading snippets through the caller', async (t) => {
    const results = await pool.compile(inputs, ctx);
    t.same(results.map((r) => ('bodyHtml' in r ? r.bodyHtml : r)), [
      '<p>From the <strong>snippet</strong>.</p>',
      '<p>Secret is undefined.</p>',
      { sourcePath: 'docs/c.mdx', message: 'Unexpected end of file after name, expected a character that can start an attribute name, such as a letter, `$`, or `_`; whitespace before attributes; or the end of the tag', line: 2, column: 1 },
      '<p>From the <strong>snippet</strong>.</p>',
    ]);
    t.same(reads.sort(), ['snippets/note.mdx', 'snippets/note.mdx']);
  });

  t.test('should compile small batches in the calling thread, where the environment is the builder\'s', async (t) => {
    const [result] = await pool.compile([inputs[1]], ctx);
    t.equal((result as CompiledPage).bodyHtml, '<p>Secret is hunter2.</p>');
  });

  t.test('should end idle workers and start them again for the next big batch', async (t) => {
    const threads = () => Number(/Threads:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))![1]);
    const idle = await createPoolCompiler({ workers: 2, threshold: 2, idleMs: 300 });
    t.teardown(() => idle.close());
    const before = threads();
    const pages = [inputs[1], inputs[1]].map((input, i) => ({ ...input, sourcePath: `docs/p${i}.mdx` }));
    t.same((await idle.compile(pages, ctx)).map((r) => (r as CompiledPage).bodyHtml), ['<p>Secret is undefined.</p>', '<p>Secret is undefined.</p>']);
    const busy = threads();
    t.ok(busy > before, `threads while busy: ${busy}, before: ${before}`);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    t.ok(threads() < busy, `threads after idling: ${threads()}, while busy: ${busy}`);
    t.same((await idle.compile(pages, ctx)).map((r) => (r as CompiledPage).bodyHtml), ['<p>Secret is undefined.</p>', '<p>Secret is undefined.</p>']);
  });

  t.test('should fail the batch a dying worker held, and compile the next batch with new workers', async (t) => {
    const pool2 = await createPoolCompiler({ workers: 2, threshold: 2 });
    t.teardown(() => pool2.close());
    const fine = [inputs[1], inputs[1]].map((input, i) => ({ ...input, sourcePath: `docs/ok${i}.mdx` }));
    // In a worker thread, process.exit ends the thread: a page can kill the worker compiling it.
    const killer = { sourcePath: 'docs/kill.mdx', source: '{process.exit(3)}\n', contentRoot: 'docs/' };
    await t.rejects(pool2.compile([killer, ...fine], ctx), { message: 'Compile worker exited with code 3' });
    t.same((await pool2.compile(fine, ctx)).map((r) => (r as CompiledPage).bodyHtml), ['<p>Secret is undefined.</p>', '<p>Secret is undefined.</p>']);
  });
});
