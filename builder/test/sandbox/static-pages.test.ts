import t from 'tap';
import { isPageFailure } from '../../src/compile/compiler.ts';
import { syntheticPage } from '../../src/compile/synthetic-page.ts';
import { createCompiler } from '../../src/sandbox/index.ts';
import { startSandbox } from '../../src/sandbox/sandbox-process.ts';
import type { CompiledPage } from '../../src/types.ts';

const noFiles = { readFile: async () => undefined };
const budget = { cpuMs: 60_000, wallMs: 120_000 };
const page = (name: string, source: string) => ({ sourcePath: `docs/${name}.mdx`, source, contentRoot: 'docs/' });
// Markdown and a built-in component with literal props: the static path.
const plain = page('plain', `${syntheticPage(1)}\n<Note>Read **this**.</Note>\n`);
// The same page with an export of its own: Vite and the module runner.
const scripted = page('scripted', `${syntheticPage(1)}\n<Note>Read **this**.</Note>\n\nexport const year = 2026;\n`);
// An expression: the MDX path too.
const expression = page('expression', '# Sum\n\n{1 + 1}\n');
// A frontmatter error: tried statically, then reported by the MDX path with its usual words.
const broken = page('broken', '---\ntitle: [unclosed\n---\n\n# Broken\n');

t.test('static pages in the sandboxes', async (t) => {
  await t.test('should count the pages a sandbox rendered without JavaScript, and render the others through Vite', async (t) => {
    const box = startSandbox({ limits: { heapMb: 512 } });
    t.teardown(() => box.close());
    const results = await box.compile([plain, scripted, expression], noFiles, budget) as CompiledPage[];
    t.equal(box.staticPages(), 1, 'the plain page only');
    t.equal(results[0].bodyHtml, results[1].bodyHtml, 'the same body on both paths');
    t.match(results[2].bodyHtml, /2/);
  });

  await t.test('should count static pages across a compiler\'s sandboxes, and none when the path is off', async (t) => {
    const on = await createCompiler({ workers: 1 });
    const off = await createCompiler({ workers: 1, staticPath: false });
    t.teardown(() => Promise.all([on.close(), off.close()]));
    const [a, b] = await Promise.all([on.compile([plain, scripted, broken], noFiles), off.compile([plain, scripted, broken], noFiles)]);
    t.equal(on.staticPages(), 1);
    t.equal(off.staticPages(), 0);
    t.same(a, b, 'the same results, the failure included');
    t.ok(isPageFailure(a[2]), 'the broken page fails');
  });
});
