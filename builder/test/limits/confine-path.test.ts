import t from 'tap';
import { confinePath, resolveLink, resolveRepoImport } from '../../src/limits/confine-path.ts';

t.test('confine-path', async (t) => {
  const pick = (fn: () => unknown) => { try { return fn(); } catch (e: any) { return { code: e.code, message: e.message }; } };

  t.test('should normalise paths inside the repository', async (t) => {
    t.equal(confinePath('docs/./guides/../index.mdx'), 'docs/index.mdx');
    t.equal(resolveRepoImport('docs/guides/a.mdx', '../../snippets/note.mdx'), 'snippets/note.mdx');
    t.equal(resolveLink('docs/a.mdx', 'b.mdx'), 'docs/b.mdx');
  });

  t.test('should refuse climbing out, absolute paths and backslashes with the same message', async (t) => {
    for (const p of ['../x', 'docs/../../x', '/etc/passwd', 'C:/x', 'docs\\x']) {
      t.same(pick(() => confinePath(p)), { code: 'unsafe_path', message: `Unexpected path "${p}"; expected a path inside the repository` });
    }
    t.same(pick(() => resolveRepoImport('docs/a.mdx', '../../../etc/passwd')), {
      code: 'unsafe_path', message: 'Unexpected import "../../../etc/passwd"; expected a file inside the repository',
    });
  });
});
