import t from 'tap';
import { CodeMetaError, parseCodeMeta } from '../../src/compile/code-meta.ts';

const plain = (meta: ReturnType<typeof parseCodeMeta>) => ({ ...meta, highlight: [...meta.highlight], focus: [...meta.focus] });
const none = { lineNumbers: false, wrap: false, expandable: false, diff: false, highlight: [], focus: [] };
const lineError = (written: string, example: string) =>
  new CodeMetaError(`Unexpected \`${written}\`; expected line numbers and ranges, e.g. \`${example}\``);
const unquotedError = (written: string, option: string) => lineError(written, `${option}={1,3-5}\` or \`${option}=1,3-5`);

t.test('parseCodeMeta', async (t) => {
  t.test('should read no options from an empty or missing meta', async (t) => {
    t.same(plain(parseCodeMeta(null)), none);
    t.same(plain(parseCodeMeta('')), none);
  });

  t.test('should read every option in any order and join the other words into the title', async (t) => {
    const expected = { lineNumbers: true, wrap: true, expandable: true, diff: false, highlight: [1, 3, 4, 5], focus: [2], title: 'My file.ts' };
    t.same(plain(parseCodeMeta('lines highlight={1,3-5} My wrap focus={2} file.ts expandable')), expected);
    t.same(plain(parseCodeMeta('expandable focus={2} My file.ts highlight={1, 3-5} wrap lines')), expected);
  });

  t.test('should read `diff` beside the other options', async (t) => {
    t.same(plain(parseCodeMeta('diff lines app.ts')), { ...none, diff: true, lineNumbers: true, title: 'app.ts' });
  });

  t.test('should read a quoted title, double or single, spaces and all', async (t) => {
    t.same(plain(parseCodeMeta('title="npm install"')), { ...none, title: 'npm install' });
    t.same(plain(parseCodeMeta("title='npm install'")), { ...none, title: 'npm install' });
    t.same(plain(parseCodeMeta('title="say \'hi\'  twice" lines')), { ...none, lineNumbers: true, title: "say 'hi'  twice" }, 'the other quote and inner spaces kept');
    t.same(plain(parseCodeMeta('title=""')), none, 'an empty title is no title');
  });

  t.test('should read quoted line numbers, double or single, with or without braces', async (t) => {
    t.same(plain(parseCodeMeta('highlight="1,3-5"')), { ...none, highlight: [1, 3, 4, 5] });
    t.same(plain(parseCodeMeta("highlight='1, 3-5'")), { ...none, highlight: [1, 3, 4, 5] });
    t.same(plain(parseCodeMeta('highlight="{1,3}"')), { ...none, highlight: [1, 3] });
    t.same(plain(parseCodeMeta('focus="2"')), { ...none, focus: [2] });
    t.same(plain(parseCodeMeta("focus='2-3'")), { ...none, focus: [2, 3] });
  });

  t.test('should read unbraced, unquoted line numbers as Mintlify pages write them', async (t) => {
    t.same(plain(parseCodeMeta('highlight=1')), { ...none, highlight: [1] });
    t.same(plain(parseCodeMeta('focus=2,4,5 app.ts')), { ...none, focus: [2, 4, 5], title: 'app.ts' });
    t.same(plain(parseCodeMeta('highlight=1-3 focus=2')), { ...none, highlight: [1, 2, 3], focus: [2] });
  });

  t.test('should read line numbers in braces alone as highlighted lines', async (t) => {
    t.same(plain(parseCodeMeta('{1,3-5}')), { ...none, highlight: [1, 3, 4, 5] });
    t.same(plain(parseCodeMeta('{ 2, 4 } app.ts')), { ...none, highlight: [2, 4], title: 'app.ts' });
    t.same(plain(parseCodeMeta('{1} highlight={2}')), { ...none, highlight: [1, 2] }, 'both forms add up');
    t.same(plain(parseCodeMeta('src/{id}.ts {slug} {1,2}.ts')), { ...none, title: 'src/{id}.ts {slug} {1,2}.ts' }, 'braces that are not a whole word of numbers are title text');
  });

  t.test('should keep option words inside a quoted title in the title', async (t) => {
    t.same(plain(parseCodeMeta('title="set highlight=on"')), { ...none, title: 'set highlight=on' });
    t.same(plain(parseCodeMeta('"focus=2 here"')), { ...none, title: 'focus=2 here' });
    t.same(plain(parseCodeMeta("'lines wrap {1}' focus={1}")), { ...none, focus: [1], title: 'lines wrap {1}' });
    t.same(plain(parseCodeMeta('title="npm install" {1,3} lines "and more"')), { ...none, lineNumbers: true, highlight: [1, 3], title: 'npm install and more' });
  });

  t.test('should treat quotes that do not close a word as title characters, as before', async (t) => {
    t.same(plain(parseCodeMeta("Don't panic.ts")), { ...none, title: "Don't panic.ts" });
    t.same(plain(parseCodeMeta('"open wrap')), { ...none, wrap: true, title: '"open' });
    t.same(plain(parseCodeMeta('title="a b"c')), { ...none, title: 'title="a b"c' });
    t.same(plain(parseCodeMeta('title=app.ts')), { ...none, title: 'title=app.ts' }, 'an unquoted title= stays a word');
  });

  t.test('should refuse malformed line sets with the expected form', async (t) => {
    t.throws(() => parseCodeMeta('highlight={a}'), unquotedError('highlight={a}', 'highlight'));
    t.throws(() => parseCodeMeta('focus=3x'), unquotedError('focus=3x', 'focus'));
    t.throws(() => parseCodeMeta('focus='), unquotedError('focus=', 'focus'));
    t.throws(() => parseCodeMeta('highlight={5-2}'), unquotedError('highlight={5-2}', 'highlight'));
    t.throws(() => parseCodeMeta('highlight="1,x"'), lineError('highlight="1,x"', 'highlight="1,3-5"'));
    t.throws(() => parseCodeMeta("focus=''"), lineError("focus=''", "focus='1,3-5'"));
    t.throws(() => parseCodeMeta('{5-2}'), new CodeMetaError('Unexpected `{5-2}`; expected line numbers and ranges in braces, e.g. `{1,3-5}`'));
  });
});
