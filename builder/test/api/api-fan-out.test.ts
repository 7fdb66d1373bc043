/**
 * OpenAPI documents whose schemas refer to one another many times (a few kilobytes standing for
 * millions of nested properties once dereferenced) make pages of bounded size: each named schema
 * is listed once per page and linked after, cycles are cut, and a page still too large fails as
 * the customer's page failure with a message saying what to change.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { generateApiPages } from '../../src/api/api-pages.ts';
import { build, type BuildOptions } from '../../src/build.ts';
import { closePagefind } from '../../src/outputs/pagefind-shard.ts';
import { createLocalDirStore } from '../../src/store/local-dir-store.ts';
import { commitFiles, makeRepo, tempDir } from '../helpers/git-repo.ts';

t.teardown(closePagefind);

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/api-fan-out');
/** Six schemas of twelve properties, each a `$ref` to the next (69.9 MB of page before), and a cyclic `Node`. */
const FAN_OUT = fs.readFileSync(path.join(FIXTURES, 'openapi.json'), 'utf8');
/** The same fan-out through references to properties, which name no schema: still too large listed once per schema. */
const TOO_BIG = fs.readFileSync(path.join(FIXTURES, 'too-big.json'), 'utf8');

const TOO_BIG_MESSAGE = 'Unexpected size of the API reference page of POST /big: its parameters and schemas list more than 5,000 fields '
  + '(each named schema listed once); expected at most 5,000. In openapi.json, put repeated objects in components.schemas and reference '
  + 'them with $ref (each is listed once per page and linked after), or split the largest schemas and shorten their descriptions and examples';

const countOf = (text: string, needle: string) => text.split(needle).length - 1;
const sizeOf = (p: { bodyHtml: string; markdown: string; searchText: string }) => Buffer.byteLength(p.bodyHtml) + Buffer.byteLength(p.markdown) + Buffer.byteLength(p.searchText);

t.test('API reference pages of fanned-out and cyclic schemas', async (t) => {
  await t.test('should list each named schema once per page and link every repeat', async (t) => {
    t.ok(FAN_OUT.length < 4096, 'the document is a few kilobytes');
    const { pages, failures } = await generateApiPages(FAN_OUT, 'openapi.json');
    t.same(failures, []);
    const fan = pages.find((p) => p.urlPath === '/api-reference/fan/fan-out')!;
    t.ok(sizeOf(fan) < 1_000_000, `page of ${sizeOf(fan)} bytes is under 1 MB`);
    // S0 is the request body; S1-S4 are listed where they first appear (S5 is past five levels).
    for (const name of ['S0', 'S1', 'S2', 'S3', 'S4']) {
      t.equal(countOf(fan.bodyHtml, `id="schema-${name}"`), 1, `${name} listed once`);
      t.equal(countOf(fan.markdown, `Properties of \`${name}\`: listed above.`), countOf(fan.bodyHtml, `href="#schema-${name}"`), `${name}'s repeats are links in both exports`);
    }
    // Each of S1-S4 is referenced by twelve properties: one lists it, eleven link to it; the response (S0) links to the body.
    t.same(['S0', 'S1', 'S2', 'S3', 'S4'].map((name) => countOf(fan.bodyHtml, `<a href="#schema-${name}">`)), [1, 11, 11, 11, 11]);
    t.equal(countOf(fan.bodyHtml, 'class="api-schema-ref"'), 45);
    t.equal(countOf(fan.bodyHtml, '<p class="api-schema-ref">Properties of <a href="#schema-S0"><code>S0</code></a>: listed above.</p>'), 1);
  });

  await t.test('should cut a self-referencing schema with links to its own listing', async (t) => {
    const { pages } = await generateApiPages(FAN_OUT, 'openapi.json');
    const nodes = pages.find((p) => p.urlPath === '/api-reference/fan/tree-of-nodes')!;
    t.ok(sizeOf(nodes) < 20_000, `page of ${sizeOf(nodes)} bytes`);
    t.equal(countOf(nodes.bodyHtml, 'id="schema-Node"'), 1);
    t.equal(countOf(nodes.bodyHtml, '<a href="#schema-Node">'), 2);
    t.match(nodes.markdown, '- `id` (string, required)\n- `parent` (object) Properties of `Node`: listed above.\n- `children` (array<object>) Properties of `Node`: listed above.\n');
  });

  await t.test('should fail a page still too large with the customer message, and make the others', async (t) => {
    const { pages, failures } = await generateApiPages(TOO_BIG, 'openapi.json');
    t.same(pages.map((p) => p.urlPath), ['/api-reference/fan/small']);
    t.same(failures, [{ sourcePath: 'openapi.json#POST /big', message: TOO_BIG_MESSAGE }]);
  });

  await t.test('should fail a page whose own example is too large to show five times', async (t) => {
    const doc = JSON.stringify({
      openapi: '3.0.3', info: { title: 'Examples', version: '1' },
      paths: { '/ex': { get: { summary: 'Ex', responses: { 200: { description: 'OK', content: { 'application/json': { example: { text: 'e'.repeat(600_000) } } } } } } } },
    });
    const { pages, failures } = await generateApiPages(doc, 'ex.json');
    t.same(pages, []);
    t.same(failures, [{
      sourcePath: 'ex.json#GET /ex',
      message: 'Unexpected size of the API reference page of GET /ex: its application/json example is 0.6 M characters; expected at most 0.5 M. In ex.json, '
        + 'put repeated objects in components.schemas and reference them with $ref (each is listed once per page and linked after), or split the largest '
        + 'schemas and shorten their descriptions and examples',
    }]);
  });

  await t.test('should fail the document when its pages together exceed the limit, naming where', async (t) => {
    // One schema of long descriptions, returned by ten operations: listed once per page, but on every page.
    const properties = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`p${i}`, { type: 'string', description: `${i} ${'d'.repeat(1000)}` }]));
    const paths = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`/op${i}`, { get: { summary: `Op ${i}`, responses: { 200: { description: 'OK', content: { 'application/json': { schema: { $ref: '#/components/schemas/Big' } } } } } } }]));
    const doc = JSON.stringify({ openapi: '3.0.3', info: { title: 'Wide', version: '1' }, paths, components: { schemas: { Big: { type: 'object', properties } } } });
    const { pages } = await generateApiPages(doc, 'wide.json');
    const sizes = pages.map((p) => p.bodyHtml.length + p.markdown.length + p.searchText.length);
    const limit = sizes[0] * 3 + 1_000;
    t.ok(sizes[3] > 1_000, 'the fourth page passes the limit');
    await t.rejects(generateApiPages(doc, 'wide.json', { maxOutput: limit }), {
      name: 'BuilderError', kind: 'user', code: 'invalid_openapi', file: 'wide.json',
      message: `api.openapi: wide.json: Unexpected size of the API reference: its pages come to more than ${limit.toLocaleString('en-US')} characters of HTML, `
        + `Markdown and search text (reached at GET /op3); expected at most ${limit.toLocaleString('en-US')}: put`
        + ' repeated objects in components.schemas and reference them with $ref '
        + '(each is listed once per page and linked after), or split the largest schemas and shorten their descriptions and examples, or split the document',
    });
  });

  await t.test('should report a too-large page as a failed page of the build and keep its previous version live', async (t) => {
    const dir = tempDir();
    // First the operation references a fan-out of two levels only: its page is made.
    const small = TOO_BIG.replace('#/components/schemas/L0/properties/inner', '#/components/schemas/L4/properties/inner');
    makeRepo(dir, {
      'docs.json': JSON.stringify({ name: 'Fan', api: { openapi: 'openapi.json' } }),
      'index.mdx': '---\ntitle: Home\n---\n\nWelcome.\n',
      'openapi.json': small,
    });
    const out = tempDir();
    const store = createLocalDirStore(out);
    const opts = (): BuildOptions => ({ source: { kind: 'dir', dir }, store, siteUrl: 'https://fan.example', year: 2025 });
    const pageKey = path.join(out, 'api-reference/fan/too-big/index.html');
    const first = await build(opts());
    t.same([first.pagesTotal, first.pagesFailed, first.errors], [3, 0, []]);
    const before = fs.readFileSync(pageKey);

    commitFiles(dir, { 'openapi.json': TOO_BIG }, 'fan out');
    const second = await build(opts());
    t.same([second.pagesTotal, second.pagesSuccess, second.pagesFailed], [3, 2, 1]);
    t.same(second.errors, [{ sourcePath: 'openapi.json#POST /big', message: TOO_BIG_MESSAGE }]);
    t.same(fs.readFileSync(pageKey), before, 'the previous version of the page is still published');

    const third = await build(opts());
    t.same([third.pagesFailed, third.apiPagesGenerated, third.errors], [1, 0, second.errors], 'reported again from the cache, nothing generated');
  });
});
