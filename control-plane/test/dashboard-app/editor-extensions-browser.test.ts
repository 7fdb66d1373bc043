/**
 * The editing extensions in real Chromium: a small page built with Vite mounts an MDX editor and
 * a docs.json editor with `mdxExtensions` / `docsJsonExtensions` and the extensions' own fetch
 * client, served by an HTTP server in this test that answers the three editor routes they call
 * (`GET /links`, `POST /assets`, `POST /validate-config`) under `/dashboard/api/projects/:id/editor`.
 * `POST /validate-config` here answers with the builder's own messages (`parseConfig`), placed
 * at the key they name. Checked: component, prop, link, icon completion; the slash menu; Mod-b,
 * Mod-i, Mod-k, Mod-s; an image dropped (stored through the upload route, referenced at the drop
 * place) and refusals shown; a docs.json key the build rejects underlined at its line.
 */
import t from 'tap';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { build } from 'vite';
import { parseConfig } from '@folio/builder/internal/config/parse-config.ts';
import { launchBrowser } from '../helpers/dashboard-browser.ts';

const EXTENSIONS = fileURLToPath(new URL('../../dashboard-app/src/editor/extensions/index.ts', import.meta.url));
const WORK = fileURLToPath(new URL('../../node_modules/.cache/folio-editor-extensions-test/', import.meta.url));
const CSRF = 'csrf-token-for-the-test';
const PROJECT = 'p1';
const MAX_UPLOAD = 2_000;

const ENTRY = `
import { EditorState } from '@codemirror/state';
import { EditorView, keymap } from '@codemirror/view';
import { history, defaultKeymap, historyKeymap } from '@codemirror/commands';
import { forEachDiagnostic } from '@codemirror/lint';
import { syntaxTree, foldable, defaultHighlightStyle } from '@codemirror/language';
import { highlightTree } from '@lezer/highlight';
import { mdxExtensions, docsJsonExtensions, fetchExtensionsApi } from ${JSON.stringify(EXTENSIONS)};
const api = fetchExtensionsApi(${JSON.stringify(PROJECT)}, { csrfToken: ${JSON.stringify(CSRF)} });
const saves = [];
const basics = [history(), keymap.of([...defaultKeymap, ...historyKeymap])];
const mdx = new EditorView({ parent: document.getElementById('mdx'), state: EditorState.create({ doc: '', extensions: [basics, mdxExtensions({ projectId: ${JSON.stringify(PROJECT)}, api, onSave: (view) => saves.push(view.state.doc.toString()) })] }) });
const json = new EditorView({ parent: document.getElementById('json'), state: EditorState.create({ doc: '', extensions: [basics, docsJsonExtensions({ projectId: ${JSON.stringify(PROJECT)}, api })] }) });
const set = (view, doc, anchor = doc.length, head = anchor) => { view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: doc }, selection: { anchor, head } }); view.focus(); };
const diagnostics = () => { const out = []; forEachDiagnostic(json.state, (d, from, to) => out.push({ line: json.state.doc.lineAt(from).number, text: json.state.sliceDoc(from, to), message: d.message, severity: d.severity })); return out; };
const inner = (text) => { const at = mdx.state.doc.toString().indexOf(text) + 1; const out = []; for (let n = syntaxTree(mdx.state).resolveInner(at, 1); n; n = n.parent) out.push(n.name); return out.join(' < '); };
const nodes = () => { const out = new Set(); syntaxTree(mdx.state).iterate({ enter: (n) => { out.add(n.name); } }); return [...out]; };
const styled = (text) => { const at = mdx.state.doc.toString().indexOf(text); let cls = ''; highlightTree(syntaxTree(mdx.state), defaultHighlightStyle, (from, to, c) => { if (from <= at && to >= at + text.length) cls = c; }, at, at + text.length); return cls; };
const folds = () => { const out = []; for (let n = 1; n <= mdx.state.doc.lines; n++) { const l = mdx.state.doc.line(n); const f = foldable(mdx.state, l.from, l.to); if (f) out.push([n, mdx.state.doc.lineAt(f.to).number]); } return out; };
window.editors = { mdx, json, saves, set, diagnostics, nodes, inner, styled, folds };
`;

const HTML = '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Editor extensions</title></head><body><div id="mdx" style="height:300px"></div><div id="json" style="height:300px"></div><script type="module" src="./entry.ts"></script></body></html>';

/** The test page, built once with Vite. */
async function buildPage(): Promise<string> {
  mkdirSync(WORK, { recursive: true });
  writeFileSync(join(WORK, 'entry.ts'), ENTRY);
  writeFileSync(join(WORK, 'index.html'), HTML);
  const out = join(WORK, 'dist');
  await build({ configFile: false, root: WORK, logLevel: 'silent', publicDir: false, build: { outDir: out, emptyOutDir: true, target: 'es2022' } });
  return out;
}

const PAGES = [
  { path: 'quickstart.mdx', url: '/quickstart', title: 'Quickstart', headings: [{ id: 'install', text: 'Install', depth: 2 }] },
  { path: 'guides/setup.mdx', url: '/guides/setup', title: 'Setup', headings: [{ id: 'requirements', text: 'Requirements', depth: 2 }, { id: 'first-run', text: 'First run', depth: 3 }] },
];

interface Upload { csrf: string | undefined; name: string; bytes: Buffer }

/** The page's files and the three editor routes. */
function startServer(root: string, uploads: Upload[]) {
  const base = `/dashboard/api/projects/${PROJECT}/editor`;
  const send = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const readBody = async (req: IncomingMessage) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  };
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === `${base}/links` && req.method === 'GET') return send(res, 200, { pages: PAGES });
    if (url.pathname === `${base}/assets` && req.method === 'POST') {
      const body = await readBody(req);
      const bytes = Buffer.from(body.content_base64, 'base64');
      if (req.headers['x-csrf-token'] !== CSRF) return send(res, 403, { error: 'csrf_failed', message: 'Missing or wrong CSRF token' });
      if (bytes.length > MAX_UPLOAD) return send(res, 413, { error: 'too_large', message: `Files may be at most ${MAX_UPLOAD} bytes` });
      uploads.push({ csrf: req.headers['x-csrf-token'] as string, name: body.name, bytes });
      return send(res, 201, { path: `public/${body.name}`, url: `/${body.name}` });
    }
    if (url.pathname === `${base}/validate-config` && req.method === 'POST') {
      const { content } = await readBody(req);
      try {
        parseConfig(content, { siteUrl: 'https://docs.example.com', basePath: '' });
        return send(res, 200, { problems: [] });
      } catch (err) {
        // `docs.json: <path>: <rule>` lines: each placed at the last key of its path.
        const problems = String((err as Error).message).split('\n').map((line) => /^docs\.json: ([^:]+): (.*)$/.exec(line)).filter((m) => m !== null).map((m) => {
          const key = m[1].split('.').pop()!;
          const offset = content.indexOf(`"${key}"`);
          const before = content.slice(0, Math.max(0, offset));
          return { line: before.split('\n').length, column: before.length - before.lastIndexOf('\n'), message: `${m[1]}: ${m[2]}` };
        });
        return send(res, 200, { problems });
      }
    }
    const file = join(root, url.pathname === '/' ? 'index.html' : url.pathname);
    if (!file.startsWith(root) || !existsSync(file)) return send(res, 404, { error: 'not_found', message: 'Not found' });
    res.writeHead(200, { 'content-type': extname(file) === '.js' ? 'text/javascript' : extname(file) === '.css' ? 'text/css' : 'text/html' });
    res.end(readFileSync(file));
  });
  return new Promise<{ url: string; close(): Promise<void> }>((resolve) => server.listen(0, '127.0.0.1', () => resolve({
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((done) => server.close(() => done())),
  })));
}

/** The labels of the open completion list. */
async function completions(page: Page): Promise<string[]> {
  await page.locator('.cm-tooltip-autocomplete').first().waitFor();
  return page.locator('.cm-tooltip-autocomplete .cm-completionLabel').allInnerTexts();
}

/**
 * Waits until `label` is the selected completion and accepts it. CodeMirror ignores Enter for
 * 75 ms after the list changes (so a fast typist's Enter is not taken as a choice), hence the pause.
 */
async function choose(page: Page, label: string): Promise<void> {
  await page.waitForFunction((l) => document.querySelector('.cm-tooltip-autocomplete [aria-selected] .cm-completionLabel')?.textContent === l, label);
  await page.waitForTimeout(150);
  await page.keyboard.press('Enter');
}

const doc = (page: Page, which: 'mdx' | 'json' = 'mdx') => page.evaluate((w) => (window as any).editors[w].state.doc.toString(), which);
const selected = (page: Page) => page.evaluate(() => { const v = (window as any).editors.mdx; const r = v.state.selection.main; return v.state.sliceDoc(r.from, r.to); });
const setDoc = (page: Page, text: string, anchor?: number, head?: number, which: 'mdx' | 'json' = 'mdx') =>
  page.evaluate(({ text, anchor, head, which }) => { const e = (window as any).editors; e.set(e[which], text, anchor ?? text.length, head ?? anchor ?? text.length); }, { text, anchor, head, which });

t.test('editor extensions in Chromium', async (t) => {
  const root = await buildPage();
  const uploads: Upload[] = [];
  const server = await startServer(root, uploads);
  t.teardown(() => server.close());
  const browser = await launchBrowser();
  t.teardown(() => browser.close());
  const page = await (await browser.newContext()).newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.setDefaultTimeout(20_000);
  await page.goto(server.url);
  await page.locator('#mdx .cm-content').waitFor();
  const key = (k: string) => page.keyboard.press(k);

  t.test('should highlight frontmatter, JSX, expressions and fenced code, and fold them and headings', async (t) => {
    const text = [
      '---', 'title: "Quickstart"', 'sidebarTitle: Start # short', '---', '',
      'import { Chart } from "/snippets/chart.jsx";', '',
      '# Quickstart', '', 'Hello {props.name}.', '',
      '<Card title="Install" icon="rocket">', '  Run this:', '', '  ```js', '  const answer = 42;', '  ```', '</Card>', '',
      '## Next', '', 'More text.', '',
    ].join('\n');
    await setDoc(page, text, 0);
    await page.waitForFunction(() => (window as any).editors.inner('Card title').startsWith('JSXIdentifier'));
    const nodes: string[] = await page.evaluate(() => (window as any).editors.nodes());
    for (const name of ['Frontmatter', 'FrontmatterKey', 'FrontmatterString', 'FrontmatterComment', 'ImportDeclaration', 'MemberExpression', 'FencedCode', 'ATXHeading1']) {
      t.ok(nodes.includes(name), `parsed: ${name}`);
    }
    const inner = (text: string) => page.evaluate((s) => (window as any).editors.inner(s), text);
    t.match(await inner('Card title'), /^JSXIdentifier < JSXOpenTag < JSXElement .* < HTMLBlock < Document$/, 'a component tag is JSX');
    t.match(await inner('title="Install"'), /^JSXIdentifier < JSXAttribute < JSXOpenTag/, 'its props are JSX attributes');
    t.match(await inner('answer ='), /^VariableDefinition < .* < FencedCode/, 'a js fence is JavaScript');
    t.match(await inner('props.name'), /^VariableName < MemberExpression < .*Paragraph/, 'an expression in text is JavaScript');
    t.match(await inner('Chart }'), /^VariableDefinition < ImportGroup < ImportDeclaration/, 'ESM is JavaScript');
    for (const token of ['sidebarTitle', '"Quickstart"', '# short', 'Card', 'import', 'const', '42']) {
      t.not(await page.evaluate((s) => (window as any).editors.styled(s), token), '', `highlighted: ${token}`);
    }
    t.same(await page.evaluate(() => (window as any).editors.folds()), [[1, 3], [8, 22], [12, 17], [15, 17], [20, 22]], 'frontmatter, headings, the Card element and the code fence fold');
  });

  t.test('should offer components after <, and insert the snippet of the chosen one', async (t) => {
    await setDoc(page, '');
    await page.keyboard.type('<Ca');
    const labels = await completions(page);
    t.ok(['Card', 'CardGroup', 'Callout'].every((l) => labels.includes(l)), `offered ${labels.join(', ')}`);
    await page.keyboard.type('rd');
    await choose(page, 'Card');
    t.equal(await doc(page), '<Card title="Title" icon="rocket" href="/">\n  Description\n</Card>');
    t.equal(await selected(page), 'Title', 'the first field is selected to type over');
  });

  t.test('should offer the props of the element inside its start tag, and their values', async (t) => {
    await setDoc(page, '<Card title="x"');
    await page.keyboard.type(' ');
    const labels = await completions(page);
    t.ok(['href', 'icon', 'horizontal', 'img', 'cta'].every((l) => labels.includes(l)), `offered ${labels.join(', ')}`);
    t.notOk(labels.includes('title'), 'a prop already written is not offered again');
    await setDoc(page, '<Badge color="');
    await page.keyboard.type('r');
    const values = await completions(page);
    t.equal(values[0], 'red', 'the best match of the allowed values first');
    t.ok(values.every((v) => ['gray', 'blue', 'green', 'yellow', 'red', 'purple', 'orange', 'white', 'surface'].includes(v)), `only allowed values: ${values.join(', ')}`);
  });

  t.test('should offer page URLs after ](, and a page\'s anchors after #', async (t) => {
    await setDoc(page, 'Read [the setup](');
    await page.keyboard.type('/');
    const labels = await completions(page);
    t.same(labels.sort(), ['/guides/setup', '/quickstart']);
    await setDoc(page, 'Read [the setup](/guides/setup');
    await page.keyboard.type('#');
    t.same((await completions(page)).sort(), ['first-run', 'requirements']);
    await page.keyboard.type('fir');
    await choose(page, 'first-run');
    t.equal(await doc(page), 'Read [the setup](/guides/setup#first-run');
    await setDoc(page, '<Card title="A" href="');
    await page.keyboard.type('/q');
    t.same(await completions(page), ['/quickstart'], 'href of a component too');
  });

  t.test('should offer icon names in icon="…"', async (t) => {
    await setDoc(page, '<Card title="A" icon=""', 22);
    await page.keyboard.type('rock');
    const labels = await completions(page);
    t.ok(labels.includes('rocket'), `offered ${labels.slice(0, 10).join(', ')}…`);
    await choose(page, 'rocket');
    t.equal(await doc(page), '<Card title="A" icon="rocket"');
  });

  t.test('should open the slash menu at the start of a line', async (t) => {
    await setDoc(page, 'Some text\n');
    await page.keyboard.type('/');
    const labels = await completions(page);
    t.ok(['Heading 2', 'Code block', 'Table', 'Image', 'Note', 'Warning', 'Card', 'Tabs'].every((l) => labels.includes(l)), `offered ${labels.join(', ')}`);
    await page.keyboard.type('warn');
    await choose(page, 'Warning');
    t.equal(await doc(page), 'Some text\n<Warning>\n  Warning text\n</Warning>');
    await setDoc(page, 'a/');
    await page.keyboard.type('x');
    await page.waitForTimeout(300);
    t.equal(await page.locator('.cm-tooltip-autocomplete').count(), 0, 'not after text on the line');
  });

  t.test('should make bold, italic and links with the keys, and save with Mod-s', async (t) => {
    await setDoc(page, 'make this bold', 5, 9);
    await key('Control+b');
    t.equal(await doc(page), 'make **this** bold');
    t.equal(await selected(page), 'this');
    await key('Control+b');
    t.equal(await doc(page), 'make this bold', 'the same key removes it');
    await key('Control+i');
    t.equal(await doc(page), 'make *this* bold');
    await setDoc(page, 'see the guide', 8, 13);
    await key('Control+k');
    t.equal(await doc(page), 'see the [guide](url)');
    t.equal(await selected(page), 'url', 'the URL is selected to type over');
    await key('Control+s');
    t.same(await page.evaluate(() => (window as any).editors.saves), ['see the [guide](url)']);
  });

  t.test('should store a dropped or pasted image through the upload route and reference it where it was dropped or at the cursor', async (t) => {
    await setDoc(page, 'Before\n\nAfter');
    const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000' + '1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082', 'hex');
    const drop = (name: string, type: string, bytes: number[]) => page.evaluate(({ name, type, bytes }) => {
      const view = (window as any).editors.mdx;
      const coords = view.coordsAtPos(view.state.doc.line(2).from);
      const data = new DataTransfer();
      data.items.add(new File([new Uint8Array(bytes)], name, { type }));
      view.contentDOM.dispatchEvent(new DragEvent('drop', { dataTransfer: data, clientX: coords.left + 1, clientY: coords.top + 2, bubbles: true, cancelable: true }));
    }, { name, type, bytes });
    await drop('pixel-shot.png', 'image/png', [...png]);
    await page.waitForFunction(() => (window as any).editors.mdx.state.doc.toString().includes('!['));
    t.equal(await doc(page), 'Before\n![pixel shot](/pixel-shot.png)\nAfter');
    t.equal(uploads.length, 1);
    t.equal(uploads[0].csrf, CSRF, 'sent with the CSRF token');
    t.same(uploads[0].bytes, png, 'the file\'s bytes arrive');
    await drop('huge.png', 'image/png', [...png, ...new Array(MAX_UPLOAD).fill(0)]);
    await page.locator('.cm-upload-message').waitFor();
    t.equal(await page.locator('.cm-upload-message span').innerText(), `huge.png was not stored: Files may be at most ${MAX_UPLOAD} bytes`, 'the server\'s refusal is shown');
    await drop('notes.txt', 'text/plain', [104, 105]);
    await page.waitForFunction(() => document.querySelector('.cm-upload-message span')?.textContent?.startsWith('notes.txt'));
    t.equal(await page.locator('.cm-upload-message span').innerText(), 'notes.txt is not an image (text/plain); only images can be pasted or dropped into a page.');
    t.equal(uploads.length, 1, 'refused files are not stored');
    t.equal(await doc(page), 'Before\n![pixel shot](/pixel-shot.png)\nAfter', 'nothing inserted for them');
    await setDoc(page, 'Pasted: ', 8);
    await page.evaluate((bytes) => {
      const view = (window as any).editors.mdx;
      const data = new DataTransfer();
      data.items.add(new File([new Uint8Array(bytes)], 'clip.png', { type: 'image/png' }));
      view.contentDOM.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
    }, [...png]);
    await page.waitForFunction(() => (window as any).editors.mdx.state.doc.toString().includes('!['));
    t.equal(await doc(page), 'Pasted: ![clip](/clip.png)', 'a pasted image is stored and referenced at the cursor');
    t.equal(uploads.length, 2);
    t.equal(await page.locator('.cm-upload-message').count(), 0, 'a stored image clears the last refusal');
  });

  t.test('should underline a docs.json key the build rejects, with the build\'s message, at its line', async (t) => {
    const config = JSON.stringify({ name: 'Acme', theme: 'larch', colors: { primary: '#0d9373' }, appearance: { defualt: 'dark' }, navigation: { pages: ['index'] } }, null, 2);
    await setDoc(page, config, 0, 0, 'json');
    await page.locator('#json .cm-lintRange-error').waitFor();
    const found = await page.evaluate(() => (window as any).editors.diagnostics());
    t.same(found, [{ line: 8, text: '"defualt"', message: 'appearance.defualt: Unexpected key; appearance accepts default, strict, layout', severity: 'error' }]);
    t.equal(config.split('\n')[7].trim(), '"defualt": "dark"', 'line 8 is the key');
    await page.locator('#json .cm-lintRange-error').hover();
    t.equal(await page.locator('#json .cm-tooltip-lint .cm-diagnosticText').innerText(), 'appearance.defualt: Unexpected key; appearance accepts default, strict, layout', 'shown on hover');
    await setDoc(page, config.replace('defualt', 'default'), 0, 0, 'json');
    await page.waitForFunction(() => (window as any).editors.diagnostics().length === 0);
    t.pass('fixed: the problem goes away');
  });

  t.test('should complete docs.json keys and values from the schema', async (t) => {
    await setDoc(page, '{\n  "appearance": {\n    "default": \n  }\n}', 35, 35, 'json');
    await page.keyboard.type('"');
    t.same((await completions(page)).sort(), ['dark', 'light', 'system']);
    await page.keyboard.type('da');
    await choose(page, 'dark');
    t.equal(await doc(page, 'json'), '{\n  "appearance": {\n    "default": "dark"\n  }\n}');
    await setDoc(page, '{\n  "name": "Acme",\n  \n}', 22, 22, 'json');
    await page.keyboard.type('"the');
    t.ok((await completions(page)).includes('theme'));
    await choose(page, 'theme');
    t.equal(await doc(page, 'json'), '{\n  "name": "Acme",\n  "theme": \n}');
  });

  t.test('should have thrown no page errors', async (t) => {
    t.same(errors, []);
  });
});
