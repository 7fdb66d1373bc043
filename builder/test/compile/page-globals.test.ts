import t from 'tap';
import { parseAst } from 'vite';
import { mentionsHook, unboundHooks } from '../../src/compile/page-globals.ts';

t.test('page-globals', async (t) => {
  t.test('should say a text names a hook only when one of its names appears', async (t) => {
    t.equal(mentionsHook('const [n, set] = useState(0);'), true);
    t.equal(mentionsHook('# Title\n\nuseEffectEvent is not a hook but contains one'), true);
    t.equal(mentionsHook('# Title\n\nUse the API to create a project.'), false);
    t.equal(mentionsHook(''), false);
  });

  t.test('should find hooks used without a binding, and none in a text naming none', async (t) => {
    const code = 'export function Counter() { const [n] = useState(0); useEffect(() => {}); return n; }';
    t.same(unboundHooks(parseAst(code)), ['useEffect', 'useState']);
    t.same(unboundHooks(parseAst(`import { useState } from 'preact/hooks';\n${code}`)), ['useEffect']);
    const plain = 'export const a = 1; export function f(x) { return x + a; }';
    t.equal(mentionsHook(plain), false);
    t.same(unboundHooks(parseAst(plain)), []);
  });
});
