import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { diffCommits } from '../../src/git/diff-commits.ts';
import { openGitSnapshot } from '../../src/git/repo-snapshot.ts';
import { MAX_PACKS, redact, syncRemote } from '../../src/git/sync-remote.ts';
import { startGitHttpServer } from '../helpers/git-http-server.ts';
import { commitFiles, makeRepo, tempDir } from '../helpers/git-repo.ts';

t.test('syncRemote', async (t) => {
  const root = tempDir();
  const origin = path.join(root, 'acme');
  const first = makeRepo(origin, {
    'docs.json': '{"name":"Acme"}\n',
    'docs/index.mdx': '# Home\n',
    'docs/guides/install.mdx': '# Install\n',
  });
  const open = await startGitHttpServer({ root });
  const locked = await startGitHttpServer({ root, token: 's3cret' });
  t.teardown(async () => { await open.close(); await locked.close(); });

  await t.test('should clone depth 1 without a checkout and read every file', async (t) => {
    const dir = tempDir();
    const res = await syncRemote({ url: `${open.url}/acme`, dir });
    t.same(res, { commit: first, cloned: true });
    const snap = await openGitSnapshot(dir);
    t.same([...snap.files.keys()].sort(), ['docs.json', 'docs/guides/install.mdx', 'docs/index.mdx']);
    t.equal(Buffer.from(await snap.read('docs/index.mdx')).toString(), '# Home\n');
    t.equal(snap.commit, first);
  });

  await t.test('should send the token as x-access-token and be let in', async (t) => {
    const dir = tempDir();
    const res = await syncRemote({ url: `${locked.url}/acme`, dir, token: 's3cret', branch: 'main' });
    t.equal(res.commit, first);
  });

  await t.test('should send the token with the first request: no unauthenticated request to be refused first', async (t) => {
    const dir = tempDir();
    const own = path.join(root, 'first-request');
    makeRepo(own, { 'docs/index.mdx': '# Home\n' });
    await syncRemote({ url: `${locked.url}/first-request`, dir, token: 's3cret', branch: 'main' });
    const second = commitFiles(own, { 'docs/index.mdx': '# Home, edited\n' });
    const before = locked.requests.length;
    t.same(await syncRemote({ url: `${locked.url}/first-request`, dir, token: 's3cret', branch: 'main' }), { commit: second, cloned: false });
    t.same(locked.requests.slice(before), ['GET /first-request/info/refs?service=git-upload-pack', 'POST /first-request/git-upload-pack'], 'the ref advertisement and the pack, each let in at once');
  });

  await t.test('should report a refused token as a user error', async (t) => {
    const err = await syncRemote({ url: `${locked.url}/acme`, dir: tempDir(), token: 'wrong' }).catch((e) => e);
    t.same({ kind: err.kind, code: err.code, message: err.message }, {
      kind: 'user', code: 'git_auth_failed',
      message: `The Git server at ${locked.url}/acme refused the token; expected a token with read access`,
    });
  });

  await t.test('should report a missing token as a user error', async (t) => {
    const err = await syncRemote({ url: `${locked.url}/acme`, dir: tempDir() }).catch((e) => e);
    t.same({ kind: err.kind, code: err.code, message: err.message }, {
      kind: 'user', code: 'git_auth_failed',
      message: `The Git server at ${locked.url}/acme asked for credentials; expected a token with read access`,
    });
  });

  await t.test('should report a missing repository as a user error', async (t) => {
    const err = await syncRemote({ url: `${open.url}/nope`, dir: tempDir() }).catch((e) => e);
    t.same({ kind: err.kind, code: err.code }, { kind: 'user', code: 'git_repo_not_found' });
  });

  await t.test('should fetch a later commit and diff it against the previous one', async (t) => {
    const dir = tempDir();
    await syncRemote({ url: `${open.url}/acme`, dir });
    const second = commitFiles(origin, {
      'docs/index.mdx': '# Home, edited\n',
      'docs/guides/install.mdx': null,
      'docs/guides/setup.mdx': '# Install\n',
      'docs/new/page.mdx': '# New\n',
    });
    const res = await syncRemote({ url: `${open.url}/acme`, dir });
    t.same(res, { commit: second, cloned: false });
    const snap = await openGitSnapshot(dir, second);
    const changes = await diffCommits(dir, first, second);
    t.same(changes, [
      { path: 'docs/guides/install.mdx', change: 'deleted', previousOid: changes[0].previousOid },
      { path: 'docs/guides/setup.mdx', change: 'added', oid: snap.files.get('docs/guides/setup.mdx') },
      { path: 'docs/index.mdx', change: 'modified', oid: snap.files.get('docs/index.mdx'), previousOid: changes[2].previousOid },
      { path: 'docs/new/page.mdx', change: 'added', oid: snap.files.get('docs/new/page.mdx') },
    ]);
    // A rename keeps the blob: the deleted and the added path carry the same id.
    t.equal(changes[0].previousOid, changes[1].oid);
  });

  await t.test('should fetch only the objects new since the last sync, not the whole tree again', async (t) => {
    const dir = tempDir();
    const many = path.join(root, 'many');
    makeRepo(many, Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`docs/page-${i}.mdx`, `# Page ${i}\n`])));
    await syncRemote({ url: `${open.url}/many`, dir, branch: 'main' });
    const packsOf = () => new Set(fs.readdirSync(path.join(dir, '.git/objects/pack')).filter((f) => f.endsWith('.pack')));
    /** Objects in the pack the last sync added (a pack's header counts them: bytes 8-11). */
    const newObjects = (before: Set<string>) => {
      const added = [...packsOf()].filter((f) => !before.has(f));
      return added.map((f) => fs.readFileSync(path.join(dir, '.git/objects/pack', f)).readUInt32BE(8));
    };
    for (const edit of [1, 2]) {
      const before = packsOf();
      const commit = commitFiles(many, { 'docs/page-7.mdx': `# Page 7, edit ${edit}\n` });
      t.same(await syncRemote({ url: `${open.url}/many`, dir, branch: 'main' }), { commit, cloned: false });
      // The commit, the root tree, docs/ and the one blob: not the 40 pages again.
      t.same(newObjects(before), [4], `edit ${edit}`);
      t.equal(Buffer.from(await (await openGitSnapshot(dir, commit)).read('docs/page-7.mdx')).toString(), `# Page 7, edit ${edit}\n`);
    }
  });

  await t.test(`should clone afresh once the kept clone holds ${MAX_PACKS} packs`, async (t) => {
    const dir = tempDir();
    await syncRemote({ url: `${open.url}/acme`, dir });
    for (let i = 0; i < MAX_PACKS; i++) fs.writeFileSync(path.join(dir, `.git/objects/pack/pack-${String(i).padStart(40, '0')}.pack`), '');
    const res = await syncRemote({ url: `${open.url}/acme`, dir });
    t.equal(res.cloned, true);
    t.equal(fs.readdirSync(path.join(dir, '.git/objects/pack')).filter((f) => f.endsWith('.pack')).length, 1);
  });

  t.test('should strip credentials from URLs it shows', async (t) => {
    t.equal(redact('https://x-access-token:abc@git.example/acme.git'), 'https://git.example/acme.git');
  });
});
