/**
 * Publishing from the web editor against a real platform on 127.0.0.1 (control plane, a builder
 * worker, the site server): drafts saved through the editor's routes, published as one commit
 * that the site then serves; a `git push` landing while a draft is open (merged), a conflicting
 * one (409, nothing committed, the draft intact, then resolved), a deleted file; a branch with
 * its preview on a paid plan and 402 on free; merging it; and who may do any of it.
 */
import t from 'tap';
import { runGit } from '../../src/git/git-cli.ts';
import { repoPath } from '../../src/git/managed-repos.ts';
import { createOrganization } from '../../src/admin/organizations.ts';
import { createApiKey } from '../../src/auth/api-keys.ts';
import { startTestPlatform } from '../helpers/platform.ts';
import { addUser, dash, signIn, type DashboardAuth } from '../helpers/dashboard.ts';
import type { TestApi } from '../helpers/api.ts';

const FILES: Record<string, string> = {
  'docs.json': '{\n  "name": "Docs",\n  "navigation": [\n    { "group": "Start", "pages": ["index", "guide"] }\n  ]\n}\n',
  'index.mdx': '---\ntitle: Home\n---\n\n# Welcome\n\nFirst paragraph.\n\nSecond paragraph.\n',
  'guide.mdx': '---\ntitle: Guide\n---\n\nThe guide.\n',
};

t.test('publishing from the web editor', async (t) => {
  const tp = await startTestPlatform();
  t.teardown(() => tp.close());
  const api = { cp: tp.p.cp, url: tp.p.cp.apiUrl, clock: { now: new Date() } } as unknown as TestApi;
  const m = tp.p.cp.m;
  const owner = await addUser(api, tp.orgId, 'owner');
  const auth = await signIn(api, owner.email);
  const ownerName = (await m.User.findById(owner.userId).lean())!.name;
  const project = (await tp.api('POST', '/projects', { name: 'Docs', slug: `publish-${process.pid}` })).body;
  const wc = await tp.workingCopy(project.slug, FILES);
  await wc.push();
  tp.startWorker();
  await tp.waitForDeployment(project.id, (d) => d.status === 'deployed');
  const gitdir = repoPath(tp.p.cp.deps, project.id);
  const base = `/projects/${project.id}/editor`;
  const call = (method: string, path: string, body?: unknown, as: DashboardAuth = auth) => dash(api, method, `${base}${path}`, { auth: as, ...(body === undefined ? {} : { body }) });
  const save = async (path: string, content: string) => {
    const res = await call('PUT', '/file', { path, content });
    t.equal(res.status, 200, res.text);
  };
  const head = async (branch = 'main') => (await runGit(['rev-parse', `refs/heads/${branch}`], { cwd: gitdir })).stdout.toString().trim();
  const show = async (rev: string) => (await runGit(['show', rev], { cwd: gitdir })).stdout.toString();
  /** Pushes with git as a writer working beside the editor would (pulling first). */
  const gitPush = async (files: Record<string, string>, remove: string[] = []) => {
    await runGit(['pull', '-q', '--rebase', 'origin', 'main'], { cwd: wc.dir, env: { GIT_AUTHOR_NAME: 'Ada', GIT_AUTHOR_EMAIL: 'ada@example.com', GIT_COMMITTER_NAME: 'Ada', GIT_COMMITTER_EMAIL: 'ada@example.com' } });
    await wc.write(files, remove);
    return wc.push();
  };
  const deployed = async (deploymentId: string) => {
    const d = await tp.waitForDeployment(project.id, (x) => x.id === deploymentId);
    t.equal(d.status, 'deployed', JSON.stringify(d));
  };

  await t.test('should publish a new page and an edit as the member, and the site serves them', async (t) => {
    await save('index.mdx', FILES['index.mdx']!.replace('First paragraph.', 'First paragraph, edited in the browser.'));
    await save('new-page.mdx', '---\ntitle: New page\n---\n\nWritten in the web editor.\n');
    const before = await head();
    const res = await call('POST', '/publish', { message: 'Edit the home page and add a page' });
    t.equal(res.status, 200, res.text);
    t.same(Object.keys(res.body).sort(), ['branch', 'commit', 'deployment_id', 'merged', 'site_url']);
    t.same({ branch: res.body.branch, merged: res.body.merged, site_url: res.body.site_url }, { branch: 'main', merged: [], site_url: tp.p.cp.deps.env.siteUrlTemplate.replace('{slug}', project.slug) });
    t.equal(await head(), res.body.commit);
    const meta = (await runGit(['log', '-1', '--format=%P|%an <%ae>|%cn <%ce>|%s', res.body.commit], { cwd: gitdir })).stdout.toString().trim();
    t.equal(meta, `${before}|${ownerName} <${owner.email}>|Folio <noreply@folio.dev>|Edit the home page and add a page`);
    t.same((await call('GET', '/drafts')).body.data, [], 'published drafts are gone');
    await deployed(res.body.deployment_id);
    t.match((await tp.site(project.slug, '/')).body, 'First paragraph, edited in the browser.');
    t.match((await tp.site(project.slug, '/new-page')).body, 'Written in the web editor.');
    const audit = await m.AuditEntry.findOne({ org_id: tp.orgId, action: 'editor.published' }).lean();
    t.same(audit?.details, { commit_sha: res.body.commit, branch: 'main', paths: ['index.mdx', 'new-page.mdx'], merged: [] });
    t.equal(audit?.actor_user_id, owner.userId);
  });

  await t.test('should merge a push that landed while a draft was open', async (t) => {
    const text = await show('main:index.mdx');
    await save('index.mdx', text.replace('Second paragraph.', 'Second paragraph, from the editor.'));
    const pushed = await gitPush({ 'index.mdx': text.replace('# Welcome', '# Welcome, from git') });
    const res = await call('POST', '/publish', { message: 'On top of a push' });
    t.equal(res.status, 200, res.text);
    t.same(res.body.merged, ['index.mdx']);
    t.equal((await runGit(['rev-parse', `${res.body.commit}^`], { cwd: gitdir })).stdout.toString().trim(), pushed);
    await deployed(res.body.deployment_id);
    const page = (await tp.site(project.slug, '/')).body;
    t.match(page, 'Welcome, from git');
    t.match(page, 'Second paragraph, from the editor.');
  });

  await t.test('should answer a conflicting push with both versions, commit nothing, keep the draft, then publish the resolution', async (t) => {
    const text = await show('main:guide.mdx');
    const mine = text.replace('The guide.', 'The guide, as the editor wrote it.');
    await save('guide.mdx', mine);
    const pushed = await gitPush({ 'guide.mdx': text.replace('The guide.', 'The guide, as git wrote it.') });
    const res = await call('POST', '/publish', { message: 'Conflicting' });
    t.same([res.status, res.body], [409, {
      error: 'merge_conflict',
      message: 'guide.mdx changed on the branch since the draft began, in the same lines as the draft; resolve each conflict (both versions are kept with conflict markers) and publish again',
      conflicts: [{
        path: 'guide.mdx', binary: false, base: text, ours: mine, theirs: text.replace('The guide.', 'The guide, as git wrote it.'),
        merged_with_markers: '---\ntitle: Guide\n---\n\n<<<<<<< draft\nThe guide, as the editor wrote it.\n=======\nThe guide, as git wrote it.\n>>>>>>> main\n',
      }],
    }]);
    t.equal(await head(), pushed, 'nothing committed');
    t.equal((await call('GET', '/file?path=guide.mdx')).body.content, mine, 'the draft is intact');
    const resolved = '---\ntitle: Guide\n---\n\nThe guide, as both wrote it.\n';
    const r = await call('POST', '/resolve', { path: 'guide.mdx', content: resolved });
    t.same([r.status, r.body.path, r.body.base_commit], [200, 'guide.mdx', pushed], r.text);
    const again = await call('POST', '/publish', { message: 'Resolved' });
    t.equal(again.status, 200, again.text);
    t.equal(await show(`${again.body.commit}:guide.mdx`), resolved);
    await deployed(again.body.deployment_id);
    t.match((await tp.site(project.slug, '/guide')).body, 'The guide, as both wrote it.');
  });

  await t.test('should refuse a draft whose file was deleted upstream', async (t) => {
    await save('new-page.mdx', '---\ntitle: New page\n---\n\nEdited again.\n');
    const pushed = await gitPush({}, ['new-page.mdx']);
    const res = await call('POST', '/publish', { message: 'x' });
    t.same([res.status, res.body], [409, { error: 'upstream_deleted', message: 'new-page.mdx was deleted or moved on the branch since the draft began; save the draft under a new path or discard it', paths: ['new-page.mdx'] }]);
    t.equal(await head(), pushed);
    t.equal((await call('POST', '/discard', { paths: ['new-page.mdx'] })).status, 200);
    const empty = await call('POST', '/publish', { message: 'x' });
    t.same([empty.status, empty.body], [409, { error: 'nothing_to_publish', message: 'There are no drafts to publish; edit a file first' }]);
  });

  await t.test('should publish to a branch with its preview, list it, and merge it into production', async (t) => {
    const text = await show('main:guide.mdx');
    await save('guide.mdx', text.replace('The guide, as both wrote it.', 'The guide, reviewed on a branch.'));
    const production = await head();
    const res = await call('POST', '/publish', { message: 'For review', branch: 'review/guide' });
    t.equal(res.status, 200, res.text);
    t.equal(res.body.branch, 'review/guide');
    t.equal(await head(), production, 'production did not move');
    const d = await m.Deployment.findById(res.body.deployment_id).lean();
    t.equal(d?.preview_url, res.body.site_url);
    t.match(res.body.site_url, `${project.slug}--`);
    const branches = await call('GET', '/branches');
    t.same(branches.body, { production: 'main', data: [{ name: 'main', head: production }, { name: 'review/guide', head: res.body.commit, preview_url: res.body.site_url }] });
    await deployed(res.body.deployment_id);

    const merged = await call('POST', '/merge', { branch: 'review/guide' });
    t.equal(merged.status, 200, merged.text);
    t.same({ ...merged.body, deployment_id: typeof merged.body.deployment_id }, { commit: res.body.commit, branch: 'main', from: 'review/guide', fast_forward: true, deployment_id: 'string', merged: [], site_url: tp.p.cp.deps.env.siteUrlTemplate.replace('{slug}', project.slug) });
    await deployed(merged.body.deployment_id);
    t.match((await tp.site(project.slug, '/guide')).body, 'The guide, reviewed on a branch.');
    t.ok(await m.AuditEntry.exists({ org_id: tp.orgId, action: 'editor.merged' }));

    // A merge commit once production moved on.
    await save('branch-only.mdx', '---\ntitle: Branch only\n---\n\nFrom the branch.\n');
    t.equal((await call('POST', '/publish', { message: 'Branch page', branch: 'review/guide' })).status, 200);
    const moved = await gitPush({ 'main-only.mdx': '---\ntitle: Main only\n---\n\nFrom main.\n' });
    const second = await call('POST', '/merge', { branch: 'review/guide' });
    t.equal(second.status, 200, second.text);
    t.equal(second.body.fast_forward, false);
    t.equal((await runGit(['log', '-1', '--format=%P', second.body.commit], { cwd: gitdir })).stdout.toString().trim(), `${moved} ${await head('review/guide')}`);
    const missing = await call('POST', '/merge', { branch: 'nope' });
    t.same([missing.status, missing.body], [404, { error: 'not_found', message: 'branch nope not found' }]);
    for (const [message, why] of [['', 'Message is required: the commit message'], ['   ', 'Message is required: the commit message'], ['a\u0000b', 'Message: Unexpected NUL character; expected text']]) {
      const res = await call('POST', '/publish', { message });
      t.same([res.status, res.body], [400, { error: 'invalid_request', message: why }], `message ${JSON.stringify(message)}`);
    }
    const bad = await call('POST', '/publish', { message: 'x', branch: '../x' });
    t.same([bad.status, bad.body], [400, { error: 'invalid_request', message: 'Branch: Unexpected branch name; Git does not accept it (no leading "-", "/" or ".", no "..", "//", trailing "/", "." or ".lock")' }]);
  });

  await t.test('should refuse branches on the free plan', async (t) => {
    const free = await createOrganization(m, `free-${process.pid}`, 'free');
    const { key: freeKey } = await createApiKey(m, { orgId: free._id });
    const member = await addUser(api, free._id, 'owner');
    const freeAuth = await signIn(api, member.email);
    const p = (await tp.api('POST', '/projects', { name: 'Free', slug: `free-pub-${process.pid}` }, freeKey)).body;
    const freeBase = `/projects/${p.id}/editor`;
    const put = await dash(api, 'PUT', `${freeBase}/file`, { auth: freeAuth, body: { path: 'a.mdx', content: '# A\n' } });
    t.equal(put.status, 200, put.text);
    const res = await dash(api, 'POST', `${freeBase}/publish`, { auth: freeAuth, body: { message: 'x', branch: 'review' } });
    t.same([res.status, res.body], [402, { error: 'plan_required', message: 'The Branch previews feature needs the Pro plan or higher', upgrade_url: tp.p.cp.deps.env.UPGRADE_URL }]);
    const merge = await dash(api, 'POST', `${freeBase}/merge`, { auth: freeAuth, body: { branch: 'review' } });
    t.same([merge.status, merge.body.error], [402, 'plan_required']);
    const ok = await dash(api, 'POST', `${freeBase}/publish`, { auth: freeAuth, body: { message: 'First page' } });
    t.equal(ok.status, 200, ok.text);
  });

  await t.test('should publish only the listed drafts, and a move with the deletion it left, keeping the old URL working', async (t) => {
    await save('listed.mdx', '---\ntitle: Listed\n---\n\nPublished alone.\n');
    await save('unlisted.mdx', '---\ntitle: Unlisted\n---\n\nStays a draft.\n');
    const res = await call('POST', '/publish', { message: 'Only one', paths: ['./listed.mdx'] });
    t.equal(res.status, 200, res.text);
    t.same((await runGit(['diff-tree', '--no-commit-id', '--name-only', '-r', res.body.commit], { cwd: gitdir })).stdout.toString().trim().split('\n'), ['listed.mdx']);
    t.same((await call('GET', '/drafts')).body.data.map((d: { path: string }) => d.path), ['unlisted.mdx']);
    const unknown = await call('POST', '/publish', { message: 'x', paths: ['nope.mdx'] });
    t.same([unknown.status, unknown.body], [404, { error: 'not_found', message: 'No draft of nope.mdx; list the drafts with GET /editor/drafts' }]);
    t.equal((await call('POST', '/discard', { paths: ['unlisted.mdx'] })).status, 200);

    const moved = await call('POST', '/move', { from: 'guide.mdx', to: 'guides/guide.mdx', update_links: true });
    t.equal(moved.status, 200, moved.text);
    const pub = await call('POST', '/publish', { message: 'Move the guide', paths: ['guides/guide.mdx', 'docs.json'] });
    t.equal(pub.status, 200, pub.text);
    const names = (await runGit(['diff-tree', '--no-commit-id', '--name-status', '-M', '-r', pub.body.commit], { cwd: gitdir })).stdout.toString().trim().split('\n');
    t.same(names.map((l) => l.split('\t').filter((x) => !/^R\d+$/.test(x)).join(' ')).sort(), ['M docs.json', 'guide.mdx guides/guide.mdx'], 'a rename in the commit, with the navigation updated');
    t.same((await call('GET', '/drafts')).body.data, [], 'the move\'s deletion was published with it');
    await deployed(pub.body.deployment_id);
    t.match((await tp.site(project.slug, '/guides/guide')).body, 'The guide');
    const old = await tp.site(project.slug, '/guide');
    t.same([old.status, old.headers.get('location')], [308, '/guides/guide'], 'the old URL redirects');
  });

  await t.test('should let only members who may publish do it, in their own organization, never with an API key', async (t) => {
    await save('guide.mdx', 'role test\n');
    const viewer = await signIn(api, (await addUser(api, tp.orgId, 'viewer')).email);
    const editor = await signIn(api, (await addUser(api, tp.orgId, 'editor')).email);
    for (const [method, path, body] of [['POST', '/publish', { message: 'x' }], ['POST', '/resolve', { path: 'guide.mdx', content: 'x' }], ['POST', '/merge', { branch: 'review/guide' }]] as const) {
      const res = await call(method, path, body, viewer);
      t.same([res.status, res.body], [403, { error: 'forbidden_role', message: 'This action needs the owner, admin or editor role; you are a viewer' }], `${path} as a viewer`);
    }
    t.equal((await call('GET', '/branches', undefined, viewer)).status, 200, 'a viewer lists branches');
    const other = await tp.newOrg(`other-${process.pid}`);
    const stranger = await signIn(api, (await addUser(api, other.orgId, 'owner')).email);
    for (const [method, path, body] of [['POST', '/publish', { message: 'x' }], ['POST', '/resolve', { path: 'guide.mdx', content: 'x' }], ['POST', '/merge', { branch: 'review/guide' }], ['GET', '/branches', undefined]] as const) {
      const res = await call(method, path, body, stranger);
      t.same([res.status, res.body], [404, { error: 'not_found', message: 'project not found' }], `${path} from another organization`);
    }
    const withKey = await fetch(`${tp.p.cp.apiUrl.replace(/\/v1$/, '')}/dashboard/api${base}/publish`, { method: 'POST', headers: { authorization: `Bearer ${tp.key}`, 'content-type': 'application/json' }, body: JSON.stringify({ message: 'x' }) });
    t.same([withKey.status, await withKey.json()], [401, { error: 'unauthorized', message: 'The dashboard API accepts only a signed-in session, never an API key; use /v1 with API keys' }]);
    const writers = await dash(api, 'POST', '/roles', { auth, body: { name: 'Writers', permissions: ['projects.read', 'content.edit'] } });
    t.equal(writers.status, 201, writers.text);
    const writer = await signIn(api, (await addUser(api, tp.orgId, writers.body.id as never)).email);
    t.equal((await call('PUT', '/file', { path: 'guide.mdx', content: 'role test by a writer\n' }, writer)).status, 200, 'a writer without content.publish saves drafts');
    const refused = await call('POST', '/publish', { message: 'x' }, writer);
    t.same([refused.status, refused.body], [403, { error: 'forbidden_role', message: 'This action needs the owner, admin or editor role; you are the custom role "Writers"' }]);
    const res = await call('POST', '/publish', { message: 'By an editor' }, editor);
    t.equal(res.status, 200, `an editor publishes: ${res.text}`);
  });
});
