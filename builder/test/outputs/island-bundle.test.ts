import t from 'tap';
import { bundleIslands } from '../../src/outputs/island-bundle.ts';

const entry = (imports: string) => `import { h, hydrate } from 'preact';\n${imports}\nconst islands = { W };\nfor (const el of document.querySelectorAll('folio-island')) hydrate(h(islands.W, {}), el);\n`;

t.test('island-bundle', async (t) => {
  const files: Record<string, string> = {
    'guides/widget.jsx': 'export const W = () => { const [n, set] = useState(1); return <button onClick={() => set(n + 1)}>{n}</button>; };\n',
    'snippets/leak.jsx': "import secret from 'preact/../../../../etc/hostname?raw';\nexport const W = () => <p>{secret}</p>;\n",
    'snippets/glob.jsx': "const all = import.meta.glob('/src/**', { eager: true, query: '?raw' });\nexport const W = () => <p>{Object.keys(all).length}</p>;\n",
    'snippets/raw.jsx': "import text from './widget.jsx?raw';\nexport const W = () => <p>{text}</p>;\n",
    'snippets/style.jsx': "import './look.css';\nexport const W = () => <p />;\n",
    'snippets/look.css': "@import '/etc/hostname';\n",
  };
  const read = async (p: string) => files[p];

  t.test("should bundle a page's component with Preact, resolving its imports from the page's folder", async (t) => {
    const code = await bundleIslands(entry("import { W } from './widget.jsx';"), 'guides/page.mdx', read);
    t.notMatch(code, /\bfrom\s*["']/, 'self-contained: no import left');
    t.match(code, /querySelectorAll\(.folio-island.\)/);
  });

  t.test("should refuse anything that could read the builder's files into a published bundle", async (t) => {
    const refused = async (spec: string) => (await bundleIslands(entry(`import { W } from '${spec}';`), 'index.mdx', read).then(() => 'bundled', (e: Error) => e.message));
    t.equal(await refused('/snippets/leak.jsx'), 'Unexpected import of `preact/../../../../etc/hostname?raw` in an interactive component; expected a repository file, react or preact');
    t.equal(await refused('/snippets/glob.jsx'), 'Unexpected import.meta in snippets/glob.jsx; interactive components may import repository files and React only');
    t.match(await refused('/snippets/raw.jsx'), /^Unexpected import of `\.\/widget\.jsx\?raw`; expected a \.mdx, \.md, \.js, \.jsx/);
    t.match(await refused('/snippets/style.jsx'), /^Unexpected import of `\.\/look\.css`/);
    t.equal(await refused('node:fs'), 'Unexpected import of `node:fs` in an interactive component; expected a repository file, react or preact');
  });
});
