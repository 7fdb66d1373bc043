import t from 'tap';
import { checkResults, cleanMessage, MAX_MESSAGE, MAX_PAGE_OUTPUT } from '../../src/sandbox/results.ts';
import { PLATFORM_ROOT } from '../../src/sandbox/runtime.ts';

const inputs = [
  { sourcePath: 'docs/a.mdx', source: '', contentRoot: 'docs/' },
  { sourcePath: 'docs/b.mdx', source: '', contentRoot: 'docs/' },
];
const good = { title: 'A', frontmatter: {}, bodyHtml: '<p>A</p>', markdown: 'A', toc: [], updates: [], rss: false, searchText: 'A' };
const TAMPERED = 'Unexpected answer from the page compile; the page may have tampered with its compiler';

t.test('checkResults', async (t) => {
  t.test('should take paths from the builder, never from the sandbox', async (t) => {
    const [page] = checkResults(inputs.slice(0, 1), [{ ...good, sourcePath: '../../other/x.mdx', urlPath: '/../../other', extra: 'dropped' }]);
    t.same(page, { sourcePath: 'docs/a.mdx', urlPath: '/a', ...good });
  });

  t.test('should fail a page whose output is too large, whatever its sandbox says', async (t) => {
    const huge = { ...good, bodyHtml: 'x'.repeat(MAX_PAGE_OUTPUT) };
    t.same(checkResults(inputs.slice(0, 1), [huge]), [{ sourcePath: 'docs/a.mdx', message: 'Page output is 21 M characters; the limit is 20 M' }]);
  });

  t.test('should fail the pages of a malformed answer', async (t) => {
    const tampered = (p: string) => ({ sourcePath: p, message: TAMPERED });
    t.same(checkResults(inputs, 'nope'), [tampered('docs/a.mdx'), tampered('docs/b.mdx')]);
    t.same(checkResults(inputs, [good]), [tampered('docs/a.mdx'), tampered('docs/b.mdx')], 'wrong length');
    t.same(checkResults(inputs, [{ ...good, bodyHtml: 42 }, null]), [tampered('docs/a.mdx'), tampered('docs/b.mdx')]);
    t.same(checkResults(inputs.slice(0, 1), [{ message: 'Bad', line: 2, column: 3 }]), [{ sourcePath: 'docs/a.mdx', message: 'Bad', line: 2, column: 3 }]);
  });

  t.test('should take a page mode only from the layouts the shell knows', async (t) => {
    t.same(checkResults(inputs.slice(0, 1), [{ ...good, mode: 'wide' }]), [{ sourcePath: 'docs/a.mdx', urlPath: '/a', ...good, mode: 'wide' }]);
    t.same(checkResults(inputs.slice(0, 1), [{ ...good, mode: 'wide" onmouseover="alert(1)' }]), [{ sourcePath: 'docs/a.mdx', message: TAMPERED }]);
  });
});

t.test('cleanMessage', async (t) => {
  t.test('should replace host paths and control characters, and cut long messages', async (t) => {
    t.equal(cleanMessage(`at ${PLATFORM_ROOT}/builder/src/x.ts:1`), 'at <platform>/builder/src/x.ts:1');
    t.equal(cleanMessage('read /proc/self/environ and "/tmp/folio-x/y" then /home/u/.ssh/id'), 'read <path> and "<path>" then <path>');
    t.equal(cleanMessage('see https://example.com/data/file and docs/data/x'), 'see https://example.com/data/file and docs/data/x');
    t.equal(cleanMessage('a\u0000b\u001bc\nd'), 'abc\nd');
    t.equal(cleanMessage('x'.repeat(MAX_MESSAGE + 10)), `${'x'.repeat(MAX_MESSAGE)}…`);
  });
});
