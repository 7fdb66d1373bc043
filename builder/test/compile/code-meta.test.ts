import t from 'tap';
import { CodeMetaError, parseCodeMeta } from '../../src/compile/code-meta.ts';

const plain = (meta: ReturnType<typeof parseCodeMeta>) => ({ ...meta, highlight: [...meta.highlight], focus: [...meta.focus] });

t.test('parseCodeMeta', async (t) => {
  t.test('should read no options from an empty or missing meta', async (t) => {
    const none = { lineNumbers: false, wrap: false, expandable: false, highlight: [], focus: [] };
    t.same(plain(parseCodeMeta(null)), none);
    t.same(plain(parseCodeMeta('')), none);
  });

  t.test('should read every option in any order and join the other words into the title', async (t) => {
    const expected = { lineNumbers: true, wrap: true, expandable: true, highlight: [1, 3, 4, 5], focus: [2], title: 'My file.ts' };
    t.same(plain(parseCodeMeta('lines highlight={1,3-5} My wrap focus={2} file.ts expandable')), expected);
    t.same(plain(parseCodeMeta('expandable focus={2} My file.ts highlight={1, 3-5} wrap lines')), expected);
  });

  t.test('should refuse malformed line sets with the expected form', async (t) => {
    t.throws(() => parseCodeMeta('highlight={a}'), new CodeMetaError('Unexpected `highlight={a}`; expected line numbers and ranges in braces, e.g. `highlight={1,3-5}`'));
    t.throws(() => parseCodeMeta('focus=3'), new CodeMetaError('Unexpected `focus=3`; expected line numbers and ranges in braces, e.g. `focus={1,3-5}`'));
    t.throws(() => parseCodeMeta('highlight={5-2}'), new CodeMetaError('Unexpected `highlight={5-2}`; expected line numbers and ranges in braces, e.g. `highlight={1,3-5}`'));
  });
});
