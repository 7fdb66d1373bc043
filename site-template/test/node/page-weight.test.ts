import t from 'tap';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildClientAssets } from '../../src/node/build-client-assets.ts';
import { PAGE_WEIGHT_BUDGET, pageWeight } from '../../src/node/page-weight.ts';
import { THEMES } from '../../src/node/theme-traits.ts';

t.test('page-weight', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'folio-weight-'));
  const { assets } = await buildClientAssets(dir);

  t.test('should keep a typical page under 60 KB gzip in every theme', async (t) => {
    for (const theme of THEMES) {
      const w = await pageWeight(dir, assets, theme);
      t.comment(`${theme}: html ${w.html} B + css ${w.css} B + js ${w.js} B = ${(w.total / 1024).toFixed(1)} KB gzip`);
      t.ok(w.total < PAGE_WEIGHT_BUDGET, `${theme} total ${w.total} B is under ${PAGE_WEIGHT_BUDGET} B`);
    }
  });
});
