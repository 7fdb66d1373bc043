import { readFile } from 'node:fs/promises';
import t from 'tap';
import { COMPILER_VERSION, isPageFailure, type CompileInput } from '../../src/compile/index.ts';
import { createCompiler } from '../../src/sandbox/index.ts';
import type { CompiledPage, PageFailure } from '../../src/types.ts';
import { plainBlock } from './code-html.ts';

const SITE = new URL('./fixtures/site/', import.meta.url);
const readSite = (path: string) => readFile(new URL(path, SITE), 'utf8').catch(() => undefined);
const ctx = { readFile: readSite };
const anchor = (id: string) => `<a class="heading-anchor" href="#${id}" aria-hidden="true" tabindex="-1">#</a>`;
const page = (sourcePath: string, source: string): CompileInput => ({ sourcePath, source, contentRoot: 'docs/' });

t.test('compile', async (t) => {
  const compiler = await createCompiler({ workers: 0 });
  t.teardown(() => compiler.close());
  const one = async (source: string, sourcePath = 'docs/page.mdx'): Promise<CompiledPage | PageFailure> => (await compiler.compile([page(sourcePath, source)], ctx))[0];
  const ok = async (source: string, sourcePath?: string): Promise<CompiledPage> => {
    const result = await one(source, sourcePath);
    if (isPageFailure(result)) throw new Error(`unexpected failure: ${result.message}`);
    return result;
  };

  t.test('should name a compiler version for cache keys', async (t) => {
    t.equal(COMPILER_VERSION, 'compile-14');
  });

  t.test('should map source paths to clean URL paths', async (t) => {
    const results = await compiler.compile(['docs/guides/install.mdx', 'docs/index.mdx', 'docs/guides/index.mdx', 'docs/notes.md'].map((p) => page(p, 'Hi')), ctx);
    t.same(results.map((r) => (r as CompiledPage).urlPath), ['/guides/install', '/', '/guides', '/notes']);
  });

  t.test('should carry highlighted code fences through MDX as finished HTML', async (t) => {
    const result = await ok('```txt lines app.ts\none\ntwo\n```\n\n```\nplain\n```\n');
    t.equal(result.bodyHtml, `${plainBlock('txt', ['one', 'two'], { attrs: ' data-line-numbers', title: 'app.ts' })}\n${plainBlock('text', ['plain'])}`);
  });

  t.test('should anchor headings with unique ids (a repeat numbered from 2, as on Mintlify) and list h2-h3 in the TOC', async (t) => {
    const result = await ok('# Guide\n\n## Set up\n\n### Set up\n\n#### Deep\n\n## Set up\n\n<Visibility for="agents">\n## Hidden\n</Visibility>\n');
    t.equal(result.bodyHtml, [
      `<h1 id="guide">Guide${anchor('guide')}</h1>`,
      `<h2 id="set-up">Set up${anchor('set-up')}</h2>`,
      `<h3 id="set-up-2">Set up${anchor('set-up-2')}</h3>`,
      `<h4 id="deep">Deep${anchor('deep')}</h4>`,
      `<h2 id="set-up-3">Set up${anchor('set-up-3')}</h2>`,
      `<div data-visibility="agents" style="display:none"><h2 id="hidden">Hidden${anchor('hidden')}</h2></div>`,
    ].join('\n'));
    t.same(result.toc, [{ depth: 2, id: 'set-up', text: 'Set up' }, { depth: 3, id: 'set-up-2', text: 'Set up' }, { depth: 2, id: 'set-up-3', text: 'Set up' }]);
  });

  t.test('should make a heading\'s id from its text without its components, as Mintlify does', async (t) => {
    const result = await ok('### `theme` - <Badge color="red">required</Badge>\n\n## Fees & billing (EU)\n');
    t.same(result.toc, [{ depth: 3, id: 'theme', text: 'theme - required' }, { depth: 2, id: 'fees-&-billing-eu', text: 'Fees & billing (EU)' }]);
  });

  t.test('should mark humans content and hide agents content in HTML, and the reverse in Markdown', async (t) => {
    const result = await ok('# Deploy\n\n<Visibility for="humans">\nClick **Deploy**.\n</Visibility>\n\n<Visibility for="agents">\nCall `POST /deployments`.\n</Visibility>\n\nInline <Visibility for="agents">agent</Visibility> text.\n');
    t.equal(result.bodyHtml, [
      `<h1 id="deploy">Deploy${anchor('deploy')}</h1>`,
      '<div data-visibility="humans"><p>Click <strong>Deploy</strong>.</p></div>',
      '<div data-visibility="agents" style="display:none"><p>Call <code>POST /deployments</code>.</p></div>',
      '<p>Inline <span data-visibility="agents" style="display:none">agent</span> text.</p>',
    ].join('\n'));
    t.equal(result.markdown, '# Deploy\n\nCall `POST /deployments`.\n\nInline agent text.\n');
    t.equal(result.searchText, 'Deploy\nClick Deploy.\nInline text.');
  });

  t.test('should refuse a Visibility without a valid `for`, with its position', async (t) => {
    t.same(await one('Text\n\n<Visibility>\nx\n</Visibility>\n'), { sourcePath: 'docs/page.mdx', message: 'Unexpected <Visibility> without `for`; expected for="humans" or for="agents"', line: 3, column: 1 });
    t.same(await one('Text\n\n  <Visibility for="robots">x</Visibility>\n'), { sourcePath: 'docs/page.mdx', message: 'Unexpected <Visibility for="robots">; expected for="humans" or for="agents"', line: 3, column: 3 });
    t.same(await one('<Visibility for={who}>x</Visibility>\n'), { sourcePath: 'docs/page.mdx', message: 'Unexpected <Visibility for={who}>; expected for="humans" or for="agents"', line: 1, column: 1 });
  });

  t.test('should read frontmatter fields', async (t) => {
    const result = await ok('---\ntitle: Install\nsidebarTitle: Setup\norder: 2\ndescription: Get going.\nrss: true\nseo:\n  title: Install Acme\n  indexing: noindex\n  keywords: [install, acme]\ncustom: 7\n---\n\n# Heading\n');
    t.same({ ...result, bodyHtml: undefined, markdown: undefined }, {
      sourcePath: 'docs/page.mdx', urlPath: '/page', title: 'Install', sidebarTitle: 'Setup', order: 2, description: 'Get going.', rss: true,
      seo: { title: 'Install Acme', indexing: 'noindex', keywords: ['install', 'acme'] },
      frontmatter: { title: 'Install', sidebarTitle: 'Setup', order: 2, description: 'Get going.', rss: true, seo: { title: 'Install Acme', indexing: 'noindex', keywords: ['install', 'acme'] }, custom: 7 },
      toc: [], updates: [], searchText: 'Heading', bodyHtml: undefined, markdown: undefined,
    });
    t.equal(result.markdown, '# Install\n\nGet going.\n\n# Heading\n');
  });

  t.test('should default the title to the first h1, else the file name', async (t) => {
    t.equal((await ok('Intro\n\n# First *one*\n\n# Second\n')).title, 'First one');
    t.equal((await ok('No heading here.\n', 'docs/guides/quick-start.mdx')).title, 'quick-start');
  });

  t.test('should refuse frontmatter of the wrong type, with its position', async (t) => {
    t.same(await one('---\norder: first\n---\n\nx\n'), { sourcePath: 'docs/page.mdx', message: 'Unexpected frontmatter `order`; expected a number', line: 1, column: 1 });
    t.same(await one('---\nseo:\n  robots: none\n---\n'), { sourcePath: 'docs/page.mdx', message: 'Unexpected frontmatter key `seo.robots`; expected one of title, description, keywords, author, ogImage, favicon, indexing, metatags', line: 1, column: 1 });
  });

  t.test('should extract Update entries for the feed', async (t) => {
    const result = await ok((await readSite('docs/changelog.mdx'))!, 'docs/changelog.mdx');
    t.same(result.updates, [
      { id: 'v2-0', label: 'v2.0', description: 'Faster builds.', date: '2024-05-01', html: '<p>Faster <strong>builds</strong>.</p>' },
      { id: 'v1-1', label: 'v1.1', description: 'Fixes for search', date: '2024-03-10', html: '<p>Search fixes.</p>' },
    ]);
    t.same(result.toc, [{ depth: 2, id: 'v2-0', text: 'v2.0' }, { depth: 2, id: 'v1-1', text: 'v1.1' }]);
    t.equal(result.rss, true);
    t.equal(result.markdown, '# Changelog\n\n## v2.0\n\n*2024-05-01*\n\nBig release\n\nFaster **builds**.\n\n## v1.1\n\n*2024-03-10*\n\nSearch fixes.\n');
    t.notMatch(result.bodyHtml, /folio:/);
  });

  t.test('should compile snippets imported by relative and repository-rooted paths', async (t) => {
    const results = await compiler.compile([
      page('docs/a.mdx', "import Prereqs from '/snippets/prereqs.mdx'\n\n<Prereqs />\n"),
      page('docs/guides/b.mdx', "import Prereqs from '../../snippets/prereqs.mdx'\nimport data from './data.json'\n\n<Prereqs />\n\n{data.name}\n"),
    ], { readFile: async (path) => (path === 'docs/guides/data.json' ? '{"name":"Acme"}' : readSite(path)) });
    t.equal((results[0] as CompiledPage).bodyHtml, '<p>You need Node 20 or later.</p>');
    t.equal((results[1] as CompiledPage).bodyHtml, '<p>You need Node 20 or later.</p>\nAcme');
  });

  t.test('should evaluate every import and export form pages and snippets use', async (t) => {
    const files: Record<string, string> = {
      'docs/parts/badge.jsx': "import { label } from './label.js'\nexport const Badge = ({ children }) => <b class=\"badge\">{label}: {children}</b>;\n",
      'docs/parts/label.js': "export const label = 'New'\nexport default 'unused'\n",
      'docs/parts/data.json': '{ "count": 3, "name": "Acme" }\n',
      'docs/parts/intro.mdx': 'export const version = 2\n\nIntro **v{version}**.\n',
    };
    const read = { readFile: async (path: string) => files[path] };
    const source = [
      "import Intro, { version } from './parts/intro.mdx'",
      "import { Badge } from './parts/badge.jsx'",
      "import * as labels from './parts/label.js'",
      "import data from './parts/data.json'",
      "export { label as shown } from './parts/label.js'",
      "export * from './parts/label.js'",
      "export const meta = { title: 'Forms' }",
      '',
      '# {meta.title} {version}',
      '',
      '<Intro />',
      '',
      '<Badge>{data.name} has {data.count}</Badge> {labels.default} {typeof import.meta.url}',
      '',
    ].join('\n');
    const [result] = await compiler.compile([page('docs/forms.mdx', source)], read);
    if (isPageFailure(result)) throw new Error(result.message);
    // (A heading made of expressions has no text to slug at compile time: its id is `section`.)
    t.equal(result.bodyHtml, [
      `<h1 id="section">Forms 2${anchor('section')}</h1>`,
      '<p>Intro <strong>v2</strong>.</p>',
      '<b class="badge">New: Acme has 3</b>\nunused\nstring',
    ].join('\n'));
  });

  t.test('should give snippets the page\'s components, at any depth', async (t) => {
    const files: Record<string, string> = {
      'snippets/outer.mdx': "import Inner from './inner.mdx'\n\n<Badge>outer</Badge>\n\n<Inner />\n",
      'snippets/inner.mdx': '<Badge>inner</Badge>\n',
    };
    const [result] = await compiler.compile([page('docs/page.mdx', "import Outer from '/snippets/outer.mdx'\n\n<Outer />\n")], { readFile: async (p) => files[p] });
    t.notOk('message' in result, (result as { message?: string }).message ?? 'compiled');
    t.match((result as CompiledPage).bodyHtml, /<span class="badge[^"]*"[^>]*>outer<\/span>[\s\S]*<span class="badge[^"]*"[^>]*>inner<\/span>/);
  });

  t.test('should refuse imports from outside the repository with their position', async (t) => {
    const failure = async (source: string) => one(source);
    t.same(await failure("import React from 'react-dom'\n"), { sourcePath: 'docs/page.mdx', message: 'Unexpected import of `react-dom`; expected a relative or /-rooted path to a file inside the repository', line: 1, column: 1 });
    t.same(await failure("# Title\n\nimport fs from 'node:fs'\n"), { sourcePath: 'docs/page.mdx', message: 'Unexpected import of `node:fs`; expected a relative or /-rooted path to a file inside the repository', line: 3, column: 1 });
    t.same(await failure("import x from 'https://cdn.example/x.mdx'\n"), { sourcePath: 'docs/page.mdx', message: 'Unexpected import of `https://cdn.example/x.mdx`; expected a relative or /-rooted path to a file inside the repository', line: 1, column: 1 });
    t.same(await failure("import x from '../../outside.mdx'\n"), { sourcePath: 'docs/page.mdx', message: 'Unexpected import of `../../outside.mdx`: it leaves the repository', line: 1, column: 1 });
    t.same(await failure("import './style.css'\n"), { sourcePath: 'docs/page.mdx', message: 'Unexpected import of `./style.css`; expected a .mdx, .md, .js, .jsx, .json file', line: 1, column: 1 });
    t.same(await failure("import Gone from './gone.mdx'\n"), { sourcePath: 'docs/page.mdx', message: 'Unexpected import of `./gone.mdx`: docs/gone.mdx does not exist in the repository', line: 1, column: 1 });
    t.same(await failure("export { x } from 'lodash'\n"), { sourcePath: 'docs/page.mdx', message: 'Unexpected import of `lodash`; expected a relative or /-rooted path to a file inside the repository', line: 1, column: 1 });
    t.same(await failure('Text\n\n{await import("node:fs")}\n'), { sourcePath: 'docs/page.mdx', message: 'Unexpected dynamic import(); expected a static import of a file inside the repository', line: 3, column: 8 });
  });

  t.test('should refuse bare imports in JavaScript snippets', async (t) => {
    const result = await compiler.compile([page('docs/page.mdx', "import { v } from '/snippets/v.js'\n\n{v}\n")], { readFile: async (p) => (p === 'snippets/v.js' ? "import fs from 'node:fs'\nexport const v = 1\n" : undefined) });
    t.same(result, [{ sourcePath: 'docs/page.mdx', message: 'snippets/v.js:1:1: Unexpected import of `node:fs`; expected a relative or /-rooted path to a file inside the repository' }]);
  });

  t.test('should report errors inside a snippet with the snippet\'s position', async (t) => {
    const result = await compiler.compile([page('docs/page.mdx', "import S from '/snippets/broken.mdx'\n\n<S />\n")], { readFile: async (p) => (p === 'snippets/broken.mdx' ? 'Fine\n\n<Visibility>x</Visibility>\n' : undefined) });
    t.same(result, [{ sourcePath: 'docs/page.mdx', message: 'snippets/broken.mdx:3:1: Unexpected <Visibility> without `for`; expected for="humans" or for="agents"' }]);
  });

  t.test('should report MDX syntax errors with their position', async (t) => {
    t.same(await one('# Title\n\n<Note>\nOpen\n'), { sourcePath: 'docs/page.mdx', message: 'Expected a closing tag for `<Note>` (3:1-3:7)', line: 3, column: 1 });
    t.same(await one('Text\n\n{1 +}\n'), { sourcePath: 'docs/page.mdx', message: 'Could not parse expression with acorn', line: 3, column: 5 });
    t.same(await one('```ts highlight={x}\nlet a\n```\n'), { sourcePath: 'docs/page.mdx', message: 'Unexpected `highlight={x}`; expected line numbers and ranges, e.g. `highlight={1,3-5}` or `highlight=1,3-5`', line: 1, column: 1 });
  });

  t.test('should report a page that throws while rendering', async (t) => {
    t.same(await one('Text {[].at(0).value}\n'), { sourcePath: 'docs/page.mdx', message: "Unexpected error while running the page: Cannot read properties of undefined (reading 'value')", line: 1, column: 6 });
  });

  t.test('should keep failures to their own page in a batch', async (t) => {
    const results = await compiler.compile([page('docs/a.mdx', '# A\n'), page('docs/b.mdx', '<Tabs>\n'), page('docs/c.mdx', '# C\n')], ctx);
    t.same(results.map((r) => (isPageFailure(r) ? r : r.bodyHtml)), [
      `<h1 id="a">A${anchor('a')}</h1>`,
      { sourcePath: 'docs/b.mdx', message: 'Expected a closing tag for `<Tabs>` (1:1-1:7)', line: 1, column: 1 },
      `<h1 id="c">C${anchor('c')}</h1>`,
    ]);
  });

  t.test('should compile .md pages as plain Markdown', async (t) => {
    const result = await ok('# Notes\n\nA {brace} and <b>html</b>.\n\n```txt\nx\n```\n', 'docs/notes.md');
    t.equal(result.bodyHtml, `<h1 id="notes">Notes${anchor('notes')}</h1>\n<p>A {brace} and html.</p>\n${plainBlock('txt', ['x'])}`);
  });

  t.test('should render a light/dark image pair and export only the light image', async (t) => {
    const result = await ok('# Pad\n\n<img src="/pad.svg" alt="Pad" className="light-only" />\n<img src="/pad-dark.svg" alt="Pad" className="dark-only" />\n');
    t.equal(result.bodyHtml, `<h1 id="pad">Pad${anchor('pad')}</h1>\n<img src="/pad.svg" alt="Pad" class="light-only"/>\n<img src="/pad-dark.svg" alt="Pad" class="dark-only"/>`);
    t.equal(result.markdown, '# Pad\n\n![Pad](/pad.svg)\n');
  });

  t.test('should export a page using components as clean Markdown', async (t) => {
    const result = await ok((await readSite('docs/components.mdx'))!, 'docs/components.mdx');
    t.equal(result.markdown, await readSite('docs/components.expected.md'));
    t.equal(result.searchText, 'Components\nIntro with bold and a link.\nKeep your API key secret.\nCallouts can have a title.\nInstall\nnpm install acme\nRun pnpm add acme.\nOpen the dashboard.\nSend a request.\nStep by step.\nClick the blue button.\nYou need Node 20 or later.\nVersion v2 is current.');
  });
});
