import t from 'tap';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { buildClientAssets } from '../../src/node/build-client-assets.ts';
import { renderPage } from '../../src/node/render-page.tsx';
import { samplePageInput, sampleSite } from '../../src/node/sample-site.tsx';
import { THEMES } from '../../src/node/theme-traits.ts';

/** Budget for a typical page's HTML + CSS + JS, gzipped (Pagefind chunks excluded). */
const BUDGET = 60 * 1024;

t.test('page-weight', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'folio-weight-'));
  const { assets } = await buildClientAssets(dir);
  const gz = (s: string | Buffer) => gzipSync(s, { level: 9 }).length;
  const js = gz(await readFile(join(dir, assets.js)));

  t.test('should keep a typical page under 60 KB gzip in every theme', async (t) => {
    for (const theme of THEMES) {
      const html = gz(renderPage(samplePageInput(sampleSite(theme), assets)));
      const css = gz(await readFile(join(dir, assets.css[theme])));
      const total = html + css + js;
      t.comment(`${theme}: html ${html} B + css ${css} B + js ${js} B = ${(total / 1024).toFixed(1)} KB gzip`);
      t.ok(total < BUDGET, `${theme} total ${total} B is under ${BUDGET} B`);
    }
  });
});
