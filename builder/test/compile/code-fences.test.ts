import t from 'tap';
import { isPageFailure, type CompileInput } from '../../src/compile/index.ts';
import { createCompiler } from '../../src/sandbox/index.ts';
import type { CompiledPage, PageFailure } from '../../src/types.ts';
import { plainBlock } from './code-html.ts';

const CODE = ['l1', 'l2', 'l3', 'l4', 'l5'];
const fence = (meta: string) => `# Code\n\n\`\`\`txt ${meta}\n${CODE.join('\n')}\n\`\`\`\n`;
const heading = '<h1 id="code">Code<a class="heading-anchor" href="#code" aria-hidden="true" tabindex="-1">#</a></h1>\n';
const marked = (lines: number[], cls: string) => Object.fromEntries(lines.map((n) => [n, cls]));

/** Each form of fence meta authors write, with the title and line classes it must render. */
const FORMS: Array<[meta: string, expected: { title?: string; attrs?: string; classes?: Record<number, string> }]> = [
  ['title="npm install"', { title: 'npm install' }],
  ["title='npm install'", { title: 'npm install' }],
  ['highlight="1,3-5"', { classes: marked([1, 3, 4, 5], 'highlighted') }],
  ["highlight='1,3-5'", { classes: marked([1, 3, 4, 5], 'highlighted') }],
  ['{1,3-5}', { classes: marked([1, 3, 4, 5], 'highlighted') }],
  ['highlight={1,3-5}', { classes: marked([1, 3, 4, 5], 'highlighted') }],
  ['focus="2"', { attrs: ' data-has-focus', classes: marked([2], 'focused') }],
  ["focus='2'", { attrs: ' data-has-focus', classes: marked([2], 'focused') }],
  ['focus={2}', { attrs: ' data-has-focus', classes: marked([2], 'focused') }],
  ['title="set highlight=on"', { title: 'set highlight=on' }],
  ['"focus=2 here"', { title: 'focus=2 here' }],
  ['app.ts lines', { title: 'app.ts', attrs: ' data-line-numbers' }],
  ['title="npm install" {2} lines', { title: 'npm install', attrs: ' data-line-numbers', classes: marked([2], 'highlighted') }],
];

t.test('code fence meta in compiled pages', async (t) => {
  const compiler = await createCompiler({ workers: 0 });
  t.teardown(() => compiler.close());
  const inputs: CompileInput[] = FORMS.map(([meta], i) => ({ sourcePath: `docs/form-${i}.mdx`, source: fence(meta), contentRoot: 'docs/' }));
  const results = await compiler.compile(inputs, { readFile: async () => undefined });

  for (const [i, [meta, expected]] of FORMS.entries()) {
    t.test(`should render \`${meta}\` with its title and marked lines`, async (t) => {
      const result: CompiledPage | PageFailure = results[i];
      if (isPageFailure(result)) return t.fail(result.message);
      t.equal(result.bodyHtml, `${heading}${plainBlock('txt', CODE, expected)}`);
    });
  }

  t.test('should fail a page with a malformed quoted line list at its fence', async (t) => {
    const [result] = await compiler.compile([{ sourcePath: 'docs/bad.mdx', source: 'Text\n\n```txt highlight="1,x"\nl1\n```\n', contentRoot: 'docs/' }], { readFile: async () => undefined });
    t.same(result, { sourcePath: 'docs/bad.mdx', message: 'Unexpected `highlight="1,x"`; expected line numbers and ranges, e.g. `highlight="1,3-5"`', line: 3, column: 1 });
  });
});
