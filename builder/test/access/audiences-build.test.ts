/**
 * A build per audience: pages marked with `groups` and `public` (frontmatter and navigation
 * groups) reach only their audience's outputs. Each gated page carries a marker in its title,
 * body, headings and code; every file of the site's own prefix is read for them.
 */
import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { build } from '../../src/build.ts';
import { audiencePrefix } from '../../src/access/audiences.ts';
import { createLocalDirStore } from '../../src/store/local-dir-store.ts';
import { prefixStore } from '../../src/store/object-store.ts';
import { tempDir } from '../helpers/git-repo.ts';

const SECRET = 'test-secret-of-the-site';

function page(title: string, marker: string, extra = ''): string {
  return `---\ntitle: ${title} ${marker}\n${extra}---\n\n## Heading ${marker}\n\nBody ${marker} text.\n\n\`\`\`js\nconst m = '${marker}';\n\`\`\`\n`;
}

function writeRepo(dir: string): void {
  const files: Record<string, string> = {
    'docs.json': JSON.stringify({
      name: 'Access', theme: 'mint',
      navigation: { groups: [
        { group: 'Start', public: true, pages: ['index', 'open'] },
        { group: 'Members', pages: ['members'] },
        { group: 'Partners', groups: ['partners'], pages: ['partner-guide'] },
      ] },
      redirects: [{ source: '/old-partner', destination: '/partner-guide' }, { source: '/old-open', destination: '/open' }],
    }),
    'docs/index.mdx': page('Welcome', 'PUBLICMARK'),
    'docs/open.mdx': page('Open', 'PUBLICMARK'),
    'docs/members.mdx': page('Members', 'MEMBERMARK'),
    'docs/partner-guide.mdx': page('Partner', 'PARTNERMARK'),
    'docs/staff-only.mdx': page('Staff', 'STAFFMARK', 'groups: [staff]\n'),
  };
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  }
}

/** Every object under `prefix` of the local store, keyed relative to it, except `_folio/`. */
function filesOf(root: string, prefix: string): Map<string, string> {
  const out = new Map<string, string>();
  const base = path.join(root, prefix);
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      const key = path.relative(base, full).split(path.sep).join('/');
      if (key.startsWith('_folio/')) continue;
      if (entry.isDirectory()) walk(full);
      else if (!entry.name.endsWith('.meta.json')) out.set(key, fs.readFileSync(full).toString('latin1'));
    }
  };
  walk(base);
  return out;
}

function markersIn(files: Map<string, string>, marker: string): string[] {
  return [...files].filter(([, text]) => text.includes(marker)).map(([key]) => key);
}

t.test('a build per audience keeps every gated page out of the other audiences', async (t) => {
  const dir = tempDir();
  const repo = path.join(dir, 'repo');
  writeRepo(repo);
  const storeDir = path.join(dir, 'store');
  const store = prefixStore(createLocalDirStore(storeDir), 'sites/p1/');
  const result = await build({ source: { kind: 'dir', dir: repo }, store, siteUrl: 'http://access.localhost', readerAccess: { secret: SECRET }, year: 2025 });
  t.equal(result.pagesFailed, 0, JSON.stringify(result.errors));
  t.equal(result.pagesTotal, 5, 'every page counted once');

  const site = filesOf(storeDir, 'sites/p1/');
  t.ok(site.has('index.html') && site.has('open/index.html'), 'the public pages are published at the site');
  t.ok(markersIn(site, 'PUBLICMARK').length > 0);
  for (const marker of ['MEMBERMARK', 'PARTNERMARK', 'STAFFMARK']) t.same(markersIn(site, marker), [], `no ${marker} in the site's own files`);
  t.notOk(site.get('_redirects.json')?.includes('partner-guide'), 'no redirect names a gated page');

  const members = filesOf(storeDir, `sites/p1/${audiencePrefix(SECRET, 'members')}`);
  t.ok(markersIn(members, 'MEMBERMARK').includes('members/index.html'), 'members read the members page');
  t.same(markersIn(members, 'PARTNERMARK'), []);
  t.same(markersIn(members, 'STAFFMARK'), []);

  const partners = filesOf(storeDir, `sites/p1/${audiencePrefix(SECRET, 'group:partners')}`);
  t.ok(markersIn(partners, 'PARTNERMARK').includes('partner-guide/index.html'), 'partners read their page');
  t.ok(markersIn(partners, 'PARTNERMARK').includes('llms-full.txt'));
  t.ok(markersIn(partners, 'MEMBERMARK').length > 0, 'and the members\' pages');
  t.same(markersIn(partners, 'STAFFMARK'), []);

  const staff = filesOf(storeDir, `sites/p1/${audiencePrefix(SECRET, 'group:staff')}`);
  t.ok(markersIn(staff, 'STAFFMARK').includes('staff-only/index.html'));
  t.same(markersIn(staff, 'PARTNERMARK'), []);

  // The partners group disappears: its site is deleted.
  fs.writeFileSync(path.join(repo, 'docs/partner-guide.mdx'), page('Partner', 'PARTNERMARK', 'groups: [staff]\n'));
  const docs = JSON.parse(fs.readFileSync(path.join(repo, 'docs.json'), 'utf8'));
  delete docs.navigation.groups[2].groups;
  fs.writeFileSync(path.join(repo, 'docs.json'), JSON.stringify(docs));
  await build({ source: { kind: 'dir', dir: repo }, store, siteUrl: 'http://access.localhost', readerAccess: { secret: SECRET }, year: 2025 });
  t.notOk(fs.existsSync(path.join(storeDir, `sites/p1/${audiencePrefix(SECRET, 'group:partners')}`, 'index.html')), 'a group no page names any more is deleted');
  t.ok(markersIn(filesOf(storeDir, `sites/p1/${audiencePrefix(SECRET, 'group:staff')}`), 'PARTNERMARK').length > 0, 'the moved page is the staff\'s now');
});

t.test('without reader authentication the pages with groups are left out and nothing else changes', async (t) => {
  const dir = tempDir();
  const repo = path.join(dir, 'repo');
  writeRepo(repo);
  const storeDir = path.join(dir, 'store');
  const result = await build({ source: { kind: 'dir', dir: repo }, store: prefixStore(createLocalDirStore(storeDir), 'sites/p2/'), siteUrl: 'http://open.localhost', year: 2025 });
  t.equal(result.pagesFailed, 0);
  const site = filesOf(storeDir, 'sites/p2/');
  t.ok(markersIn(site, 'MEMBERMARK').includes('members/index.html'), 'pages without groups are public');
  t.same(markersIn(site, 'PARTNERMARK'), []);
  t.same(markersIn(site, 'STAFFMARK'), []);
  t.notOk(fs.existsSync(path.join(storeDir, 'sites/p2/_folio/access')), 'no other audience is written');
});
