/**
 * The access keys' rejections: a page's frontmatter (`groups`, `public`) and a navigation group's
 * in `docs.json`, each with the exact message an author sees.
 */
import t from 'tap';
import { readPageAccess } from '../../src/access/page-access.ts';
import { loadConfig } from '../../src/config/parse-config.ts';
import { BuilderError } from '../../src/errors.ts';

const SITE = { siteUrl: 'http://docs.localhost', basePath: '' };

t.test('page frontmatter', async (t) => {
  t.same(readPageAccess('---\ntitle: A\n---\nbody', 'a.mdx'), {}, 'no keys: nothing said');
  t.same(readPageAccess('---\ngroups: [b, a, a]\n---\n', 'a.mdx'), { groups: ['a', 'b'] }, 'groups sorted, once each');
  t.same(readPageAccess('---\npublic: true\n---\n', 'a.mdx'), { public: true });
  t.same(readPageAccess('# no frontmatter\npublic: true\n', 'a.mdx'), {}, 'only the frontmatter counts');
  const rejected: [string, string][] = [
    ['groups: admin', 'Unexpected frontmatter `groups`; expected a list of group names'],
    ['groups: []', 'Unexpected frontmatter `groups`; expected at least one group name'],
    ['groups: [1]', 'Unexpected frontmatter `groups`; expected a group name of 1 to 100 characters'],
    [`groups: ["${'x'.repeat(101)}"]`, 'Unexpected frontmatter `groups`; expected a group name of 1 to 100 characters'],
    ['public: yes please', 'Unexpected frontmatter `public`; expected true or false'],
    ['public: true\ngroups: [a]', 'Unexpected frontmatter `public: true` together with `groups`; a page is either public or for groups'],
  ];
  for (const [yaml, message] of rejected) {
    try {
      readPageAccess(`---\ntitle: A\n${yaml}\n---\n`, 'guide.mdx');
      t.fail(`accepted ${yaml}`);
    } catch (err) {
      t.ok(err instanceof BuilderError, yaml);
      t.equal((err as BuilderError).code, 'invalid_frontmatter', yaml);
      t.equal((err as BuilderError).message, message, yaml);
      t.equal((err as BuilderError).file, 'guide.mdx');
    }
  }
});

t.test('navigation groups in docs.json', async (t) => {
  const load = (group: Record<string, unknown>) => loadConfig(JSON.stringify({ name: 'A', navigation: { groups: [{ group: 'G', pages: ['index'], ...group }] } }), async () => undefined, SITE);
  const loaded = await load({ groups: ['b', 'a'] });
  const group = loaded.config.navigation?.[0];
  t.same(group && typeof group === 'object' && 'group' in group ? group.access : undefined, { groups: ['a', 'b'] }, 'kept for the build');
  const rejected: [Record<string, unknown>, RegExp][] = [
    [{ groups: 'admins' }, /navigation\.groups\[0\]\.groups: .*expected a list of group names/],
    [{ groups: [] }, /navigation\.groups\[0\]\.groups: .*expected at least one group name/],
    [{ public: 'yes' }, /navigation\.groups\[0\]\.public: .*expected true or false/],
    [{ public: true, groups: ['a'] }, /Unexpected `public: true` together with `groups`; a group is either public or for groups/],
  ];
  for (const [keys, message] of rejected) {
    await t.rejects(load(keys), message, JSON.stringify(keys));
  }
});
