/**
 * A page's own hook component naming built-in components (`<Card icon=…>`, `<Note>`, `<Icon>`)
 * without importing them hydrates in the browser as it renders on the server: the client module
 * binds the template's components, and carries only the icons its components can name.
 */
import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { browseStatic } from '../../../site-template/test/helpers/browser.ts';
import { build } from '../../src/build.ts';
import { createCompiler } from '../../src/sandbox/index.ts';
import { closePagefind } from '../../src/outputs/pagefind-shard.ts';
import { createLocalDirStore } from '../../src/store/local-dir-store.ts';
import { makeRepo, tempDir } from '../helpers/git-repo.ts';

t.teardown(closePagefind);

const TOGGLE = [
  'export const Toggle = ({ label }) => {',
  '  const [open, setOpen] = useState(false);',
  "  return <Card title={open ? 'Open' : 'Closed'} icon={open ? 'rocket' : 'flag'}>",
  '    <Note>{label}</Note>',
  '    <button onClick={() => setOpen(!open)}>Toggle</button>',
  '  </Card>;',
  '};',
].join('\n');

t.test('built-in components in hydrated hook components', async (t) => {
  const compiler = await createCompiler();
  t.teardown(() => compiler.close());
  const repo = tempDir();
  makeRepo(repo, {
    'docs.json': JSON.stringify({ name: 'Islands', navigation: { groups: [{ group: 'Docs', pages: ['index'] }] } }),
    'index.mdx': `---\ntitle: Home\n---\n\nimport { Star } from '/snippets/star.jsx'\n\n${TOGGLE}\n\n<Toggle label="Inside a note" />\n\n<Star />\n`,
    'snippets/star.jsx': "export const Star = () => {\n  const [n, setN] = useState(1);\n  return <p><Icon icon=\"star\" /> <button onClick={() => setN(n + 1)}>{`Stars: ${n}`}</button></p>;\n};\n",
  });
  const out = tempDir();
  const res = await build({ source: { kind: 'dir', dir: repo }, store: createLocalDirStore(out), siteUrl: 'https://islands.example', compiler, year: 2026 });
  t.same({ failed: res.pagesFailed, warnings: res.warnings.filter((w) => w.includes('hydrated')) }, { failed: 0, warnings: [] });
  const html = fs.readFileSync(path.join(out, 'index.html'), 'utf8');
  const script = /<script type="module" src="(\/_folio\/islands\/[0-9a-f]{16}\.js)"><\/script>/.exec(html)?.[1];
  const bundle = fs.readFileSync(path.join(out, script!), 'utf8');

  t.test('should carry the icons the components can name, and no others', async (t) => {
    t.match(html, 'data-icon="flag"', 'rendered on the server');
    for (const name of ['rocket', 'flag', 'star']) t.match(bundle, `:${name}"`, name);
    t.notMatch(bundle, '":github"');
    t.notMatch(bundle, 'node:', 'no file reading in the browser');
  });

  t.test('should hydrate them in Chromium, rendering built-ins and icons on each change', async (t) => {
    const { server, browser } = await browseStatic(t, out);
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${server.origin}/`);
    await page.waitForSelector('folio-island[data-c="Toggle"][data-hydrated]', { state: 'attached' });
    const toggle = page.locator('folio-island[data-c="Toggle"]');
    t.equal(await toggle.locator('.card-title').textContent(), 'Closed');
    await toggle.locator('button').click();
    t.equal(await toggle.locator('.card-title').textContent(), 'Open');
    t.equal(await toggle.locator('svg[data-icon]').getAttribute('data-icon'), 'rocket', 'the new icon is drawn in the browser');
    t.match(await toggle.locator('.callout').textContent(), 'Inside a note');
    const star = page.locator('folio-island[data-c="Star"]');
    await star.locator('button').click();
    t.equal(await star.locator('button').textContent(), 'Stars: 2');
    t.equal(await star.locator('svg[data-icon]').getAttribute('data-icon'), 'star', 'a snippet\'s built-in <Icon> keeps its icon');
    t.same(errors, []);
  });
});
