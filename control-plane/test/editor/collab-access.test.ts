/**
 * Who may open the collaboration socket: a signed-in member with `content.edit` on the project's
 * organization, from the dashboard's own origin, for a file path. Every refusal is checked with
 * its exact HTTP answer (or, for a document name, the provider's refusal reason).
 */
import t from 'tap';
import { createApiKey } from '../../src/auth/api-keys.ts';
import { createOrganization } from '../../src/admin/organizations.ts';
import { startTestPlatform } from '../helpers/platform.ts';
import { client, collabUrl, member, rawUpgrade, until } from './collab-clients.ts';

const tp = await startTestPlatform();
t.teardown(() => tp.close());
const origin = new URL(tp.p.cp.apiUrl).origin;
const project = (await tp.api('POST', '/projects', { name: 'Docs', slug: `collab-access-${process.pid}` })).body;
const url = collabUrl(origin, project.id);
const editor = await member(tp.p.cp.m, origin, tp.orgId, 'editor');
const own = { cookie: editor.cookie, origin };

t.test('a member with content.edit from the dashboard origin connects', async (t) => {
  t.equal((await rawUpgrade(url, own)).status, 101);
  const c = client(url, 'index.mdx', own);
  t.same(await c.ready, { scope: 'read-write' });
  c.destroy();
});

t.test('no cookie, an unknown cookie or an API key: 401', async (t) => {
  const expected = { status: 401, body: { error: 'unauthorized', message: 'Not signed in; sign in to the dashboard first' } };
  t.same(await rawUpgrade(url, { origin }), expected);
  t.same(await rawUpgrade(url, { origin, cookie: 'folio_session=not-a-session' }), expected);
  t.same(await rawUpgrade(url, { origin, authorization: `Bearer ${tp.key}` }), expected);
  t.same(await rawUpgrade(`${url}?token=${encodeURIComponent(tp.key)}`, { authorization: `Bearer ${tp.key}` }), expected);
});

t.test('another origin or a cross-site fetch: 403 csrf_failed', async (t) => {
  t.same(await rawUpgrade(url, { cookie: editor.cookie, origin: 'https://evil.example' }), {
    status: 403, body: { error: 'csrf_failed', message: `Origin: Unexpected "https://evil.example"; expected ${origin}` },
  });
  t.same(await rawUpgrade(url, { cookie: editor.cookie, origin: 'null' }), {
    status: 403, body: { error: 'csrf_failed', message: `Origin: Unexpected "null"; expected ${origin}` },
  });
  t.same(await rawUpgrade(url, { cookie: editor.cookie, 'sec-fetch-site': 'same-site' }), {
    status: 403, body: { error: 'csrf_failed', message: 'Sec-Fetch-Site: Unexpected "same-site"; expected same-origin (the dashboard calls its API only from its own pages)' },
  });
});

t.test("another organization's project, or none: 404 as every project route", async (t) => {
  const other = await tp.newOrg(`collab-other-${process.pid}`);
  const theirs = (await tp.api('POST', '/projects', { name: 'Theirs', slug: `collab-theirs-${process.pid}` }, other.key)).body;
  const expected = { status: 404, body: { error: 'not_found', message: 'project not found' } };
  t.same(await rawUpgrade(collabUrl(origin, theirs.id), own), expected);
  t.same(await rawUpgrade(collabUrl(origin, 'no-such-project'), own), expected);
});

t.test('a viewer (no content.edit): 403 forbidden_role', async (t) => {
  const viewer = await member(tp.p.cp.m, origin, tp.orgId, 'viewer');
  t.same(await rawUpgrade(url, { cookie: viewer.cookie, origin }), {
    status: 403, body: { error: 'forbidden_role', message: 'This action needs the owner, admin or editor role; you are a viewer' },
  });
});

t.test('other upgrade paths are answered by the ordinary routes, never upgraded', async (t) => {
  const res = await rawUpgrade(`${url}/more`, own);
  t.equal(res.status, 404);
  t.equal(res.body.error, 'not_found');
  t.equal((await rawUpgrade(`${origin.replace('http', 'ws')}/v1/projects`, own)).status, 401);
});

t.test('a document name that is not a text file path is refused', async (t) => {
  for (const [name, message] of [
    ['../secrets.mdx', 'document: Unexpected ".." segment; expected a path inside the repository'],
    ['/abs.mdx', 'document: Unexpected absolute path; expected a path relative to the repository root, such as guides/install.mdx'],
    ['images/logo.png', 'document: Unexpected file type ".png"; expected one of .mdx .md .json .yaml .yml .css .js .jsx .ts .tsx .txt (images and other files go through assets)'],
    ['./guides//a.mdx', 'document: Unexpected "./guides//a.mdx"; expected the normalised path "guides/a.mdx"'],
  ] as const) {
    const c = client(url, name, own);
    t.same(await c.ready, { failed: JSON.stringify({ error: 'invalid_path', message }) }, name);
    c.destroy();
  }
});

t.test('a member removed while connected is cut off', async (t) => {
  const leaving = await member(tp.p.cp.m, origin, tp.orgId, 'editor');
  const c = client(url, 'removed.mdx', { cookie: leaving.cookie, origin });
  t.same(await c.ready, { scope: 'read-write' });
  await tp.p.cp.m.Membership.deleteOne({ org_id: tp.orgId, user_id: leaving.userId });
  // The next check (on a message, or the idle timer) closes the socket.
  await until(async () => { c.text.insert(0, 'x'); await new Promise((r) => setTimeout(r, 300)); return c.socket.status !== 'connected'; }, 'the socket to close', 20_000);
  t.equal(await c.closed, 4403);
  c.destroy();
});

t.test('a free organization: the second person gets the file read-only, their writes are not applied', async (t) => {
  const free = await createOrganization(tp.p.cp.m, `collab-free-${process.pid}`, 'free');
  const key = (await createApiKey(tp.p.cp.m, { orgId: free._id })).key;
  const freeProject = (await tp.api('POST', '/projects', { name: 'Free', slug: `collab-free-${process.pid}` }, key)).body;
  const freeUrl = collabUrl(origin, freeProject.id);
  const first = await member(tp.p.cp.m, origin, free._id, 'owner', 'Ada Writer');
  const second = await member(tp.p.cp.m, origin, free._id, 'editor', 'Bo Reader');
  const a = client(freeUrl, 'guide.mdx', { cookie: first.cookie, origin });
  t.same(await a.ready, { scope: 'read-write' });
  await until(() => a.provider.isSynced, 'the first client to sync');
  a.text.insert(0, 'Hello from Ada.');
  const b = client(freeUrl, 'guide.mdx', { cookie: second.cookie, origin });
  t.same(await b.ready, { scope: 'readonly' });
  await until(() => b.statuses.length > 0, 'a status for the second client');
  t.same(b.statuses.at(-1), { readOnly: true, editingBy: ['Ada Writer'] });
  await until(() => b.text.toString() === 'Hello from Ada.', 'the reader to see the text');
  b.text.insert(0, 'Not applied. ');
  await new Promise((r) => setTimeout(r, 500));
  t.equal(a.text.toString(), 'Hello from Ada.', 'the writer never sees the read-only write');
  // When the writer leaves, the next in line may write.
  a.destroy();
  await until(() => b.statuses.at(-1)?.readOnly === false, 'the reader to become the writer');
  t.same(b.statuses.at(-1), { readOnly: false, editingBy: [] });
  b.destroy();
});
