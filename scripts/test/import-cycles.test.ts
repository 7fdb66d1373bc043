import path from 'node:path';
import t from 'tap';
import { sourceTree } from './helpers/source-tree.ts';
import { fileEdges, importCycles, SOURCE_ROOTS } from '../src/import-cycles.ts';

t.test('import-cycles', async (t) => {
  t.test('should find files that import themselves through others, type-only and dynamic imports included', async (t) => {
    const dir = sourceTree(t, {
      'a/one.ts': "import { two } from '../b/two.ts';\nexport const one = two;\n",
      'b/two.ts': "import type { Three } from './three.ts';\nexport const two: Three = 2;\n",
      'b/three.ts': "export type Three = number;\nexport const load = () => import('../a/one.ts');\n",
      'c/four.tsx': "import { one } from '../a/one.ts';\nexport const four = one;\n",
      'c/self.ts': "export { four } from './four.tsx';\nexport const self = () => import('./self.ts');\n",
    });
    const name = (f: string) => path.relative(dir, f);
    // Groups in any order: directory listings are in the file system's order.
    t.same(importCycles(fileEdges([dir])).map((group) => group.map(name)).sort((a, b) => a[0].localeCompare(b[0])), [
      ['a/one.ts', 'b/three.ts', 'b/two.ts'],
      ['c/self.ts'],
    ]);
  });

  t.test('should find no import circle in any package', async (t) => {
    t.same(importCycles(fileEdges(SOURCE_ROOTS)).map((group) => group.map((f) => path.basename(f))), []);
  });
});
