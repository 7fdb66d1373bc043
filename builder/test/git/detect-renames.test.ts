import t from 'tap';
import { detectRenames, similarity } from '../../src/git/detect-renames.ts';

const page = (title: string, body: string) => `---\ntitle: ${title}\ndescription: About ${title}.\n---\n\n# ${title}\n\n${body}\n`;

t.test('detectRenames', async (t) => {
  const blobs = new Map<string, string>();
  const read = async (oid: string) => (blobs.has(oid) ? Buffer.from(blobs.get(oid)!) : undefined);
  const blob = (oid: string, text: string) => { blobs.set(oid, text); return oid; };

  t.test('should take the same blob under a new path for a rename', async (t) => {
    t.same(await detectRenames(new Map([['docs/a.mdx', 'b1']]), new Map([['docs/guides/a.mdx', 'b1']])), [{ from: 'docs/a.mdx', to: 'docs/guides/a.mdx', similarity: 100 }]);
  });

  t.test('should find an edited page moved, by the bytes its lines share', async (t) => {
    const body = 'Install the CLI with npm, then run it once to sign in.\n\n```bash\nnpm install -g acme\nacme login\n```\n\nYour key is stored in the keychain.';
    const old = blob('o1', page('Install', body));
    const now = blob('n1', page('Install', body + '\n\nOn Windows, use PowerShell.'));
    const found = await detectRenames(new Map([['docs/install.mdx', old]]), new Map([['docs/setup/install.mdx', now]]), read);
    t.same(found.map((r) => [r.from, r.to]), [['docs/install.mdx', 'docs/setup/install.mdx']]);
    t.ok(found[0].similarity >= 50);
  });

  t.test('should not take a deleted and an unrelated added short page for a rename', async (t) => {
    const old = blob('o2', page('API', '<ParamField path="id" type="string">The id.</ParamField>'));
    const now = blob('n2', page('New', 'A new page.'));
    t.ok(similarity(blobs.get(old)!, blobs.get(now)!) < 50, 'blank lines and fences weigh little');
    t.same(await detectRenames(new Map([['docs/reference/api.mdx', old]]), new Map([['docs/guides/new.mdx', now]]), read), []);
  });
});
