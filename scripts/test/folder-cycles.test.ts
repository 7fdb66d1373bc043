import { fileURLToPath } from 'node:url';
import t from 'tap';
import { sourceTree } from './helpers/source-tree.ts';
import { ALLOWED, folderEdges, mutualPairs } from '../src/folder-cycles.ts';

const controlPlaneSrc = fileURLToPath(new URL('../../control-plane/src/', import.meta.url));

t.test('folder-cycles', async (t) => {
  t.test('should find a pair of folders that import each other through different files', async (t) => {
    const dir = sourceTree(t, {
      'a/one.ts': "import { two } from '../b/two.ts';\nexport const one = two;\n",
      'a/three.ts': 'export const three = 3;\n',
      'b/two.ts': 'export const two = 2;\n',
      'b/four.ts': "export { three } from '../a/three.ts';\n",
      'c/five.ts': "import type { two } from '../b/two.ts';\nexport const five = (await import('../a/three.ts')).three;\n",
    });
    t.same(mutualPairs(folderEdges(dir)), [{ pair: 'a|b', there: 'a/one.ts → ../b/two.ts', back: 'b/four.ts → ../a/three.ts' }]);
    t.same([...folderEdges(dir).get('c')!.keys()].sort(), ['a', 'b'], 'type imports and dynamic imports count');
  });

  t.test('should find no pair of control-plane folders importing each other but the known ones', async (t) => {
    const pairs = mutualPairs(folderEdges(controlPlaneSrc));
    t.same(pairs.filter((p) => !ALLOWED.has(p.pair)), []);
  });
});
