/**
 * The web editor's drafts and files against a real platform on 127.0.0.1: a managed repository
 * with pages pushed by `git`, then every route of the drafts workspace as the dashboard calls
 * it, with exact bodies for each refusal, another organization, a viewer and an API key.
 */
import t from 'tap';
import { GITHUB_OFF_MESSAGE } from '../../src/github/github-app.ts';
import { startTestPlatform } from '../helpers/platform.ts';
import { addUser, dash, signIn, type DashboardAuth } from '../helpers/dashboard.ts';
import type { TestApi } from '../helpers/api.ts';

const FILES: Record<string, string> = {
  'docs.json': '{\n  "name": "Docs",\n  "navigation": [\n    { "group": "Start", "pages": ["index", "guides/install", "guides/setup"] }\n  ]\n}\n',
  'index.mdx': '---\ntitle: Home\n---\n\n# Welcome\n\nSee [install](/guides/install#fees-&-billing) first.\n',
  'guides/install.mdx': '---\ntitle: Install\n---\n\n## Fees & billing\n\nText.\n\n## Fees & billing\n\n### `theme` <Badge>new</Badge>\n',
  'guides/setup.mdx': '---\ntitle: Setup\n---\n\n<Card title="Install" href="/guides/install">Go</Card>\n\nAnd [again](./install).\n',
  'snippets/note.mdx': 'A note.\n',
};

t.test('editor drafts and files', async (t) => {
  const tp = await startTestPlatform();
  t.teardown(() => tp.close());
  const api = { cp: tp.p.cp, url: tp.p.cp.apiUrl, clock: { now: new Date() } } as unknown as TestApi;
  const owner = await addUser(api, tp.orgId, 'owner');
  const auth = await signIn(api, owner.email);
  const viewerAuth = await signIn(api, (await addUser(api, tp.orgId, 'viewer')).email);
  const project = (await tp.api('POST', '/projects', { name: 'Docs', slug: `editor-${process.pid}` })).body;
  const wc = await tp.workingCopy(project.slug, FILES);
  const head = await wc.push();
  const base = `/projects/${project.id}/editor`;
  const call = (method: string, path: string, body?: unknown, as: DashboardAuth = auth) => dash(api, method, `${base}${path}`, { auth: as, ...(body === undefined ? {} : { body }) });
  const tree = async () => (await call('GET', '/tree')).body.files as Array<Record<string, unknown>>;
  const read = async (path: string) => (await call('GET', `/file?path=${encodeURIComponent(path)}`)).body;
  const who = { id: owner.userId, name: (await tp.p.cp.m.User.findById(owner.userId).lean())!.name, email: owner.email };

  t.test('should list the repository at head with kinds', async (t) => {
    const res = await call('GET', '/tree');
    t.equal(res.status, 200, res.text);
    t.same(res.body, {
      branch: 'main', head,
      files: [
        { path: 'docs.json', kind: 'config', size: Buffer.byteLength(FILES['docs.json']!), status: 'unchanged' },
        { path: 'guides/install.mdx', kind: 'page', size: Buffer.byteLength(FILES['guides/install.mdx']!), status: 'unchanged' },
        { path: 'guides/setup.mdx', kind: 'page', size: Buffer.byteLength(FILES['guides/setup.mdx']!), status: 'unchanged' },
        { path: 'index.mdx', kind: 'page', size: Buffer.byteLength(FILES['index.mdx']!), status: 'unchanged' },
        { path: 'snippets/note.mdx', kind: 'snippet', size: Buffer.byteLength(FILES['snippets/note.mdx']!), status: 'unchanged' },
      ],
    });
  });

  t.test('should read a file at head, then as a draft after a save', async (t) => {
    t.same(await read('index.mdx'), { path: 'index.mdx', kind: 'page', encoding: 'utf8', content: FILES['index.mdx'], base_commit: head, base_content: FILES['index.mdx'], draft: null });
    const saved = await call('PUT', '/file', { path: 'index.mdx', content: '# Hello\n', revision: 0 });
    t.same([saved.status, saved.body.path, saved.body.revision], [200, 'index.mdx', 1], saved.text);
    const file = await read('./index.mdx');
    t.same({ ...file, draft: { ...file.draft, updated_at: 'x' } }, { path: 'index.mdx', kind: 'page', encoding: 'utf8', content: '# Hello\n', base_commit: head, base_content: FILES['index.mdx'], draft: { revision: 1, updated_by: who, updated_at: 'x' } });
    const stale = await call('PUT', '/file', { path: 'index.mdx', content: '# Mine\n', revision: 0 });
    t.same([stale.status, stale.body], [409, { error: 'draft_conflict', message: 'The draft of index.mdx changed since the revision you edited; reload it and apply your change again' }]);
    const again = await call('PUT', '/file', { path: 'index.mdx', content: FILES['index.mdx'], revision: 1 });
    t.equal(again.body.revision, 2);
    const unchecked = await call('PUT', '/file', { path: 'index.mdx', content: FILES['index.mdx'] });
    t.equal(unchecked.body.revision, 3);
    const row = (await tree()).find((f) => f.path === 'index.mdx')!;
    t.same({ ...row, updated_at: typeof row.updated_at }, { path: 'index.mdx', kind: 'page', size: Buffer.byteLength(FILES['index.mdx']!), status: 'modified', updated_by: who, updated_at: 'string' });
  });

  t.test('should create a page as an added draft and refuse what is too large', async (t) => {
    const made = await call('PUT', '/file', { path: 'guides/new.mdx', content: '# New\n', revision: 0 });
    t.equal(made.status, 200, made.text);
    t.same((await tree()).find((f) => f.path === 'guides/new.mdx')!.status, 'added');
    t.same((await read('guides/new.mdx')).base_content, null);
    const big = 'x'.repeat(1024 * 1024 + 1);
    const res = await call('PUT', '/file', { path: 'guides/big.mdx', content: big });
    t.same([res.status, res.body], [413, { error: 'too_large', message: 'Content: Unexpected size 1048577 bytes; expected at most 1048576 (1 MB)' }]);
    const under = await call('PUT', '/file', { path: 'index.mdx/child.mdx', content: 'x' });
    t.same([under.status, under.body], [409, { error: 'path_exists', message: 'Path: Unexpected file index.mdx where a folder is needed; choose another path' }]);
    const odd = await call('GET', '/file?path=a.mdx&path=b.mdx');
    t.same([odd.status, odd.body.error], [400, 'invalid_request'], 'two paths are refused, not a 5xx');
    const huge = await call('PUT', '/file', { path: 'guides/huge.mdx', content: 'x'.repeat(5 * 1024 * 1024) });
    t.same([huge.status, huge.body.error], [413, 'payload_too_large'], 'a body over the editor\'s JSON limit');
    const missing = await call('GET', '/file?path=nope.mdx');
    t.same([missing.status, missing.body], [404, { error: 'not_found', message: 'File nope.mdx not found' }]);
    const bad = await call('PUT', '/file', { path: 'a.mdx' });
    t.same([bad.status, bad.body.error], [400, 'invalid_request']);
  });

  t.test('should refuse hostile paths with invalid_path', async (t) => {
    const cases: Array<[string, string]> = [
      ['../etc/passwd.md', 'Path: Unexpected ".." segment; expected a path inside the repository'],
      ['guides/../../x.mdx', 'Path: Unexpected ".." segment; expected a path inside the repository'],
      ['/etc/x.mdx', 'Path: Unexpected absolute path; expected a path relative to the repository root, such as guides/install.mdx'],
      ['C:/x.mdx', 'Path: Unexpected absolute path; expected a path relative to the repository root, such as guides/install.mdx'],
      ['guides\\x.mdx', 'Path: Unexpected backslash; expected "/" between folders'],
      ['a\u0000.mdx', 'Path: Unexpected NUL character; expected a path inside the repository'],
      ['a\u0007.mdx', 'Path: Unexpected control character; expected printable characters'],
      ['.git/config.md', 'Path: Unexpected ".git" segment; Git\'s own files cannot be edited'],
      ['x/.GIT/hooks.md', 'Path: Unexpected ".git" segment; Git\'s own files cannot be edited'],
      [`${'a/'.repeat(150)}x.mdx`, 'Path: Unexpected length 305; expected at most 300 characters'],
      [`${'n'.repeat(121)}.mdx`, 'Path: Unexpected name of 125 characters; expected at most 120'],
      ['cafe\u0301.mdx', 'Path: Unexpected decomposed Unicode; expected NFC (composed) characters'],
      ['', 'Path: Unexpected empty path; expected a path such as guides/install.mdx'],
      ['page.html', 'Path: Unexpected file type ".html"; expected one of .mdx .md .json .yaml .yml .css .js .jsx .ts .tsx .txt (images and other files go through assets)'],
      ['logo.svg', 'Path: Unexpected file type ".svg"; expected one of .mdx .md .json .yaml .yml .css .js .jsx .ts .tsx .txt (images and other files go through assets)'],
    ];
    for (const [path, message] of cases) {
      const res = await call('PUT', '/file', { path, content: 'x' });
      t.same([res.status, res.body], [400, { error: 'invalid_path', message }], JSON.stringify(path));
    }
    const get = await call('GET', `/file?path=${encodeURIComponent('../x.mdx')}`);
    t.same([get.status, get.body], [400, { error: 'invalid_path', message: 'Path: Unexpected ".." segment; expected a path inside the repository' }]);
    const move = await call('POST', '/move', { from: 'index.mdx', to: '../index.mdx' });
    t.same([move.status, move.body], [400, { error: 'invalid_path', message: 'To: Unexpected ".." segment; expected a path inside the repository' }]);
    t.same((await tp.p.cp.m.EditorDraft.find({ project_id: project.id, path: /\.\.|passwd|\.git/i }).lean()).length, 0, 'nothing stored');
  });

  t.test('should rename a page, list the links to it and rewrite them on request', async (t) => {
    const listed = await call('POST', '/move', { from: 'guides/install.mdx', to: 'guides/installation.mdx' });
    t.equal(listed.status, 200, listed.text);
    t.same(listed.body, {
      moved: [{ from: 'guides/install.mdx', to: 'guides/installation.mdx' }],
      links: [
        { path: 'guides/setup.mdx', line: 5, text: '<Card title="Install" href="/guides/install">Go</Card>' },
        { path: 'guides/setup.mdx', line: 7, text: 'And [again](./install).' },
        { path: 'index.mdx', line: 7, text: 'See [install](/guides/install#fees-&-billing) first.' },
        { path: 'docs.json', line: 4, text: '{ "group": "Start", "pages": ["index", "guides/install", "guides/setup"] }' },
      ],
      updated: [],
    });
    const files = await tree();
    t.same(files.find((f) => f.path === 'guides/install.mdx')!.status, 'deleted');
    t.same(files.find((f) => f.path === 'guides/installation.mdx')!.renamed_from, 'guides/install.mdx');
    t.same((await read('guides/installation.mdx')).content, FILES['guides/install.mdx']);
    // Discarding the new half puts the page back where it was.
    const undo = await call('POST', '/discard', { paths: ['guides/installation.mdx'] });
    t.same(undo.body, { discarded: 2 });
    t.same((await tree()).find((f) => f.path === 'guides/install.mdx')!.status, 'unchanged');

    const updated = await call('POST', '/move', { from: 'guides/install.mdx', to: 'guides/installation.mdx', update_links: true });
    t.same(updated.body.updated, ['guides/setup.mdx', 'index.mdx', 'docs.json']);
    t.match((await read('index.mdx')).content, 'See [install](/guides/installation#fees-&-billing) first.');
    t.match((await read('guides/setup.mdx')).content, '<Card title="Install" href="/guides/installation">Go</Card>');
    t.match((await read('guides/setup.mdx')).content, 'And [again](/guides/installation).');
    t.match((await read('docs.json')).content, '"pages": ["index", "guides/installation", "guides/setup"]');
    const taken = await call('POST', '/move', { from: 'guides/setup.mdx', to: 'index.mdx' });
    t.same([taken.status, taken.body], [409, { error: 'path_exists', message: 'To: Unexpected existing file index.mdx; delete it first or choose another path' }]);
    const gone = await call('POST', '/move', { from: 'guides/install.mdx', to: 'x.mdx' });
    t.same([gone.status, gone.body], [404, { error: 'not_found', message: 'File or folder guides/install.mdx not found' }]);
  });

  t.test('should move a folder with every file in it', async (t) => {
    const res = await call('POST', '/move', { from: 'guides', to: 'tutorials/' });
    t.equal(res.status, 200, res.text);
    t.same(res.body.moved, [
      { from: 'guides/installation.mdx', to: 'tutorials/installation.mdx' },
      { from: 'guides/new.mdx', to: 'tutorials/new.mdx' },
      { from: 'guides/setup.mdx', to: 'tutorials/setup.mdx' },
    ]);
    const files = await tree();
    const row = (p: string) => files.find((f) => f.path === p);
    // A page moved twice still names where it is at head.
    t.same(row('tutorials/installation.mdx')!.renamed_from, 'guides/install.mdx');
    t.same(row('tutorials/new.mdx')!.renamed_from, undefined, 'a new page has no origin');
    t.same([row('guides/setup.mdx')!.status, row('guides/installation.mdx'), row('guides/new.mdx')], ['deleted', undefined, undefined]);
    const inside = await call('POST', '/move', { from: 'tutorials', to: 'tutorials/deeper' });
    t.same([inside.status, inside.body], [400, { error: 'invalid_path', message: 'To: Unexpected folder inside tutorials; expected a path outside the folder being moved' }]);
  });

  t.test('should delete files and folders as drafts', async (t) => {
    const res = await call('POST', '/delete', { path: 'snippets' });
    t.same([res.status, res.body], [200, { deleted: ['snippets/note.mdx'] }]);
    t.same((await tree()).find((f) => f.path === 'snippets/note.mdx')!.status, 'deleted');
    t.same((await read('snippets/note.mdx')).content, null);
    const fresh = await call('POST', '/delete', { path: 'tutorials/new.mdx' });
    t.same(fresh.body, { deleted: ['tutorials/new.mdx'] });
    t.equal((await tree()).find((f) => f.path === 'tutorials/new.mdx'), undefined, 'a new file is simply gone');
    const none = await call('POST', '/delete', { path: 'snippets' });
    t.same([none.status, none.body], [404, { error: 'not_found', message: 'File or folder snippets not found' }]);
  });

  t.test('should list drafts with who changed them', async (t) => {
    const res = await call('GET', '/drafts');
    t.equal(res.status, 200, res.text);
    const byPath = Object.fromEntries(res.body.data.map((d: any) => [d.path, d]));
    t.same(Object.keys(byPath).sort(), ['docs.json', 'guides/install.mdx', 'guides/setup.mdx', 'index.mdx', 'snippets/note.mdx', 'tutorials/installation.mdx', 'tutorials/setup.mdx']);
    t.same([byPath['tutorials/installation.mdx'].status, byPath['tutorials/installation.mdx'].renamed_from, byPath['guides/install.mdx'].status, byPath['index.mdx'].status], ['added', 'guides/install.mdx', 'deleted', 'modified']);
    t.same([byPath['index.mdx'].updated_by, byPath['index.mdx'].created_by], [who, who]);
  });

  t.test('should list pages with the builder\'s heading ids', async (t) => {
    const res = await call('GET', '/links');
    t.equal(res.status, 200, res.text);
    t.same(res.body.pages.find((p: any) => p.path === 'tutorials/installation.mdx'), {
      path: 'tutorials/installation.mdx', url: '/tutorials/installation', title: 'Install',
      headings: [{ id: 'fees-&-billing', text: 'Fees & billing', depth: 2 }, { id: 'fees-&-billing-2', text: 'Fees & billing', depth: 2 }, { id: 'theme', text: 'theme new', depth: 3 }],
    });
    t.same(res.body.pages.map((p: any) => [p.path, p.url, p.title]), [['index.mdx', '/', 'Home'], ['tutorials/installation.mdx', '/tutorials/installation', 'Install'], ['tutorials/setup.mdx', '/tutorials/setup', 'Setup']]);
  });

  t.test('should store images with the upload rules', async (t) => {
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 1)]);
    const ok = await call('POST', '/assets', { name: 'Diagram.PNG', content_base64: png.toString('base64') });
    t.same([ok.status, ok.body], [201, { path: 'public/Diagram.png', url: '/Diagram.png' }]);
    const same = await call('POST', '/assets', { name: 'Diagram.png', content_base64: png.toString('base64') });
    t.same(same.body, { path: 'public/Diagram.png', url: '/Diagram.png' }, 'the same bytes keep their name');
    const other = await call('POST', '/assets', { path: 'images', name: 'Diagram.png', content_base64: Buffer.concat([png, Buffer.from([2])]).toString('base64') });
    t.same(other.body, { path: 'images/Diagram.png', url: '/images/Diagram.png' });
    const clash = await call('POST', '/assets', { name: 'Diagram.png', content_base64: Buffer.concat([png, Buffer.from([3])]).toString('base64') });
    t.same(clash.body, { path: 'public/Diagram-2.png', url: '/Diagram-2.png' });
    const file = await read('public/Diagram.png');
    t.same([file.kind, file.encoding, file.content], ['asset', 'base64', png.toString('base64')]);
    const svg = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><script>alert(1)</script><rect width="10" height="10" onclick="alert(2)"/></svg>';
    const cleaned = await call('POST', '/assets', { name: 'logo.svg', content_base64: Buffer.from(svg).toString('base64') });
    t.same(cleaned.body, { path: 'public/logo.svg', url: '/logo.svg' });
    const stored = Buffer.from((await read('public/logo.svg')).content, 'base64').toString();
    t.notMatch(stored, /script|onclick|alert/);
    t.match(stored, '<rect');
    const elf = Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1]), Buffer.alloc(64)]);
    const exe = await call('POST', '/assets', { name: 'run.png', content_base64: elf.toString('base64') });
    t.same([exe.status, exe.body], [400, { error: 'invalid_request', message: 'File: Unexpected file type; expected SVG, PNG, ICO, WebP or JPEG' }]);
    const big = Buffer.concat([png, Buffer.alloc(2 * 1024 * 1024)]);
    const tooBig = await call('POST', '/assets', { name: 'big.png', content_base64: big.toString('base64') });
    t.same([tooBig.status, tooBig.body], [413, { error: 'too_large', message: `File: Unexpected size ${big.length} bytes; expected at most 2097152 (2 MB)` }]);
    const notB64 = await call('POST', '/assets', { name: 'x.png', content_base64: 'not base64!' });
    t.same([notB64.status, notB64.body], [400, { error: 'invalid_request', message: 'File: Unexpected character; expected base64' }]);
    const folders = await call('POST', '/assets', { name: '../../x.png', content_base64: png.toString('base64') });
    t.same([folders.status, folders.body], [201, { path: 'public/x.png', url: '/x.png' }], 'folders in the name are dropped');
    const badName = await call('POST', '/assets', { name: 'a b$.png', content_base64: png.toString('base64') });
    t.same([badName.status, badName.body], [400, { error: 'invalid_request', message: 'Name: Unexpected file name "a b$"; expected letters, digits, ".", "_" or "-", not starting with "." or "-"' }]);
    const badDir = await call('POST', '/assets', { path: '.git', name: 'x.png', content_base64: png.toString('base64') });
    t.same([badDir.status, badDir.body], [400, { error: 'invalid_path', message: 'Path: Unexpected ".git" segment; Git\'s own files cannot be edited' }]);
  });

  t.test('should report docs.json problems with the build\'s messages at their place', async (t) => {
    const syntax = await call('POST', '/validate-config', { content: '{\n  "name": "Docs",\n  "theme": mint\n}' });
    t.same([syntax.status, syntax.body], [200, { problems: [{ line: 3, column: 12, message: 'Unexpected token "m"; expected a value' }] }]);
    const schema = await call('POST', '/validate-config', { content: '{\n  "name": 5,\n  "colors": { "primary": "red" }\n}' });
    t.equal(schema.status, 200);
    t.ok(schema.body.problems.length >= 1, JSON.stringify(schema.body));
    t.same(schema.body.problems[0], { line: 2, column: 11, message: schema.body.problems[0].message });
    t.match(schema.body.problems[0].message, /^name: /);
    const fine = await call('POST', '/validate-config', { content: FILES['docs.json'] });
    t.same(fine.body, { problems: [] });
  });

  t.test('should discard all drafts', async (t) => {
    const res = await call('POST', '/discard', {});
    t.equal(res.status, 200);
    t.ok(res.body.discarded >= 7);
    t.ok((await tree()).every((f) => f.status === 'unchanged'));
  });

  t.test('should refuse other organizations, viewers, API keys and missing CSRF', async (t) => {
    const other = await tp.newOrg(`other-${process.pid}`);
    const stranger = await signIn(api, (await addUser(api, other.orgId, 'owner')).email);
    for (const [method, path, body] of [['GET', '/tree'], ['GET', '/file?path=index.mdx'], ['PUT', '/file', { path: 'index.mdx', content: 'x' }], ['POST', '/move', { from: 'index.mdx', to: 'b.mdx' }], ['POST', '/delete', { path: 'index.mdx' }], ['POST', '/assets', { name: 'a', content_base64: '' }], ['GET', '/drafts'], ['POST', '/discard', {}], ['POST', '/validate-config', { content: '{}' }], ['GET', '/links']] as const) {
      const res = await call(method, path, body, stranger);
      t.same([res.status, res.body], [404, { error: 'not_found', message: 'project not found' }], `${method} ${path} of another organization`);
      const keyed = await dash(api, method, `${base}${path}`, { headers: { authorization: `Bearer ${tp.key}` }, ...(body === undefined ? {} : { body }) });
      t.same([keyed.status, keyed.body], [401, { error: 'unauthorized', message: 'The dashboard API accepts only a signed-in session, never an API key; use /v1 with API keys' }], `${method} ${path} with an API key`);
      if (method !== 'GET' && path !== '/validate-config') {
        const viewer = await call(method, path, body, viewerAuth);
        t.same([viewer.status, viewer.body], [403, { error: 'forbidden_role', message: 'This action needs the owner, admin or editor role; you are a viewer' }], `${method} ${path} as a viewer`);
        const noCsrf = await dash(api, method, `${base}${path}`, { auth, noCsrf: true, body });
        t.same([noCsrf.status, noCsrf.body.error], [403, 'csrf_failed'], `${method} ${path} without CSRF`);
      } else {
        t.equal((await call(method, path, body, viewerAuth)).status, 200, `${method} ${path} as a viewer reads`);
        if (method === 'POST') t.same((await dash(api, method, `${base}${path}`, { auth, noCsrf: true, body })).body.error, 'csrf_failed');
      }
    }
    t.same((await tp.p.cp.m.EditorDraft.countDocuments({ project_id: project.id })), 0, 'nothing was written');
  });

  t.test('should say when a customer\'s own repository cannot be reached', async (t) => {
    const own = (await tp.api('POST', '/projects', { name: 'Own', slug: `own-${process.pid}` })).body;
    await tp.p.cp.m.Project.updateOne({ _id: own.id }, { $set: { github_repo: 'acme/docs' } });
    const res = await dash(api, 'GET', `/projects/${own.id}/editor/tree`, { auth });
    t.same([res.status, res.body], [409, { error: 'editor_repo_unsupported', message: `Cannot reach acme/docs: ${GITHUB_OFF_MESSAGE}` }], 'no GitHub App on this server');
  });
});
