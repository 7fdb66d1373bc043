/**
 * Publishing drafts into a real bare repository (the functions, without HTTP): the commit's
 * author, committer and message; a three-way merge with what was pushed since the draft began;
 * conflicts and upstream deletions that commit nothing; pushes racing a publish; merging a branch.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import { parseEnv } from '../../src/env.ts';
import { runGit } from '../../src/git/git-cli.ts';
import { repoPath } from '../../src/git/managed-repos.ts';
import { localRepoDir } from '../../src/editor/repo-access.ts';
import { mergeText } from '../../src/editor/publish/merge-text.ts';
import { branchCommit, compareAndSwapBranch } from '../../src/editor/publish/git-plumbing.ts';
import { mergeBranch, publishDrafts } from '../../src/editor/publish/publish.ts';
import type { DraftInput } from '../../src/editor/publish/plan-changes.ts';
import { startTestApi } from '../helpers/api.ts';

const GIT_ENV = { GIT_AUTHOR_NAME: 'Ada', GIT_AUTHOR_EMAIL: 'ada@example.com', GIT_COMMITTER_NAME: 'Ada', GIT_COMMITTER_EMAIL: 'ada@example.com' };

t.test('three-way merge of one text', async (t) => {
  t.same(mergeText('a\nb\nc\n', 'A\nb\nc\n', 'a\nb\nC\n'), { clean: true, text: 'A\nb\nC\n' }, 'changes to different lines combine');
  t.same(mergeText('a\nb\n', 'a\nB\n', 'a\nB\n'), { clean: true, text: 'a\nB\n' }, 'the same change on both sides is taken once');
  t.same(mergeText('a\nb\nc\n', 'a\nX\nc\n', 'a\nY\nc\n'), { clean: false, conflicts: 1, withMarkers: 'a\n<<<<<<< draft\nX\n=======\nY\n>>>>>>> published\nc\n' }, 'both sides kept between markers');
  t.same(mergeText('a\nb', 'a\nb\nc', 'z\na\nb'), { clean: true, text: 'z\na\nb\nc' }, 'a last line without a line end');
  t.same(mergeText('a\r\nb\r\nc\r\n', 'a\r\nb\r\nC\r\n', 'A\r\nb\r\nc\r\n'), { clean: true, text: 'A\r\nb\r\nC\r\n' }, 'CRLF line ends kept');
  t.equal(mergeText('a\nb\n', 'A\nb\n', 'a\nB\n').clean, false, 'changes to adjacent lines conflict, as in Git');
});

t.test('publishing drafts into a managed repository', async (t) => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-publish-'));
  const api = await startTestApi({ env: parseEnv({ API_PORT: '0', LOG_LEVEL: 'silent', DATA_DIR: dataDir, EDITOR_COMMITTER_NAME: 'Folio Test', EDITOR_COMMITTER_EMAIL: 'noreply@folio.test', ...(process.env.MONGODB_URI ? { MONGODB_URI: process.env.MONGODB_URI } : {}) }) });
  t.teardown(async () => { await api.close(); fs.rmSync(dataDir, { recursive: true, force: true }); });
  const deps = api.cp.deps;
  const { orgId, key } = await api.tenant('pro');
  const project = await api.project(key);
  const proj = (await api.cp.m.Project.findById(project.id).lean())!;
  // Made here as the platform's project hooks would (this control plane runs without them).
  const gitdir = await localRepoDir(deps, proj);
  t.equal(gitdir, repoPath(deps, project.id), 'a managed project is edited in its own repository');
  const by = { userId: 'u1', author: { name: 'Grace Hopper', email: 'grace@example.com' } };

  // A working copy pushing straight into the bare repository (a `git push` as far as refs go).
  const wc = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-publish-wc-'));
  t.teardown(() => fs.rmSync(wc, { recursive: true, force: true }));
  await runGit(['init', '-q', '-b', 'main'], { cwd: wc });
  const push = async (files: Record<string, string | null>, branch = 'main') => {
    await runGit(['fetch', '-q', gitdir, `+refs/heads/${branch}:refs/remotes/origin/${branch}`], { cwd: wc, allowFail: true });
    await runGit(['checkout', '-q', '-B', branch, `origin/${branch}`], { cwd: wc, allowFail: true });
    for (const [f, text] of Object.entries(files)) {
      if (text === null) { fs.rmSync(path.join(wc, f)); continue; }
      fs.mkdirSync(path.dirname(path.join(wc, f)), { recursive: true });
      fs.writeFileSync(path.join(wc, f), text);
    }
    await runGit(['add', '-A'], { cwd: wc });
    await runGit(['commit', '-q', '-m', 'push'], { cwd: wc, env: GIT_ENV });
    await runGit(['push', '-q', gitdir, `HEAD:refs/heads/${branch}`], { cwd: wc });
    return (await runGit(['rev-parse', 'HEAD'], { cwd: wc })).stdout.toString().trim();
  };
  const show = async (rev: string) => (await runGit(['show', rev], { cwd: gitdir, allowFail: true })).stdout.toString();
  const blobAt = async (commit: string, p: string) => (await runGit(['rev-parse', `${commit}:${p}`], { cwd: gitdir })).stdout.toString().trim();
  const draft = async (p: string, content: string | null, base: string): Promise<DraftInput> => ({
    path: p, kind: 'text', content, base_commit: base, base_blob: await blobAt(base, p).catch(() => null), renamed_from: null,
  });

  const first = await push({ 'docs.json': '{"name":"Docs"}\n', 'index.mdx': '# Home\n\nline one\nline two\nline three\n', 'guide.mdx': '# Guide\n' });

  await t.test('should commit a new page and an edit as the member, with the platform as committer', async (t) => {
    const drafts = [await draft('index.mdx', '# Home\n\nline one (edited)\nline two\nline three\n', first), { path: 'new-page.mdx', kind: 'text' as const, content: '# New\n', base_commit: first, base_blob: null, renamed_from: null }];
    const out = await publishDrafts(deps, proj, { drafts, message: 'Edit the home page\n\nAnd add a page', by });
    t.equal(out.branch, 'main');
    t.equal(await branchCommit(gitdir, 'main'), out.commit);
    t.same(out.merged, []);
    t.ok(out.deployment_id, 'a deployment is queued');
    const d = await api.cp.m.Deployment.findById(out.deployment_id).lean();
    t.equal(d?.commit_sha, out.commit);
    t.equal(d?.trigger, 'push');
    const log = (await runGit(['log', '-1', '--format=%an <%ae>|%cn <%ce>|%B', out.commit], { cwd: gitdir })).stdout.toString();
    t.equal(log.trim(), 'Grace Hopper <grace@example.com>|Folio Test <noreply@folio.test>|Edit the home page\n\nAnd add a page');
    t.match(await show(`${out.commit}:new-page.mdx`), '# New');
    t.match(await show(`${out.commit}:index.mdx`), 'line one (edited)');
    t.equal((await runGit(['rev-parse', `${out.commit}^`], { cwd: gitdir })).stdout.toString().trim(), first, 'one commit on top of the head');
    const audit = await api.cp.m.AuditEntry.findOne({ org_id: orgId, action: 'deployment.triggered', target_id: out.deployment_id }).lean();
    t.same(audit?.details, { via: 'web editor', commit_sha: out.commit });
  });

  await t.test('should merge a push that landed since the draft began', async (t) => {
    const base = (await branchCommit(gitdir, 'main'))!;
    const d = await draft('index.mdx', '# Home\n\nline one (edited)\nline two\nline three (draft)\n', base);
    const pushed = await push({ 'index.mdx': '# Home (pushed)\n\nline one (edited)\nline two\nline three\n' });
    const out = await publishDrafts(deps, proj, { drafts: [d], message: 'Draft on top of a push', by });
    t.same(out.merged, ['index.mdx']);
    t.equal((await runGit(['rev-parse', `${out.commit}^`], { cwd: gitdir })).stdout.toString().trim(), pushed, 'the push is kept in the history');
    t.equal(await show(`${out.commit}:index.mdx`), '# Home (pushed)\n\nline one (edited)\nline two\nline three (draft)\n', 'both changes in the result');
  });

  await t.test('should answer a conflict with both versions and commit nothing', async (t) => {
    const base = (await branchCommit(gitdir, 'main'))!;
    const d = await draft('guide.mdx', '# Guide (draft title)\n', base);
    const pushed = await push({ 'guide.mdx': '# Guide (pushed title)\n' });
    const err = await publishDrafts(deps, proj, { drafts: [d], message: 'x', by }).catch((e) => e);
    t.equal(err.status, 409);
    t.equal(err.code, 'merge_conflict');
    t.equal(err.message, 'guide.mdx changed on the branch since the draft began, in the same lines as the draft; resolve each conflict (both versions are kept with conflict markers) and publish again');
    t.same(err.extra.conflicts, [{
      path: 'guide.mdx', binary: false, base: '# Guide\n', ours: '# Guide (draft title)\n', theirs: '# Guide (pushed title)\n',
      merged_with_markers: '<<<<<<< draft\n# Guide (draft title)\n=======\n# Guide (pushed title)\n>>>>>>> main\n',
    }]);
    t.equal(await branchCommit(gitdir, 'main'), pushed, 'nothing committed');
  });

  await t.test('should refuse a draft whose file was deleted upstream', async (t) => {
    const base = (await branchCommit(gitdir, 'main'))!;
    const d = await draft('guide.mdx', '# Guide (resolved)\n', base);
    const pushed = await push({ 'guide.mdx': null });
    const err = await publishDrafts(deps, proj, { drafts: [d], message: 'x', by }).catch((e) => e);
    t.equal(err.code, 'upstream_deleted');
    t.equal(err.message, 'guide.mdx was deleted or moved on the branch since the draft began; save the draft under a new path or discard it');
    t.same(err.extra, { paths: ['guide.mdx'] });
    t.equal(await branchCommit(gitdir, 'main'), pushed);
  });

  await t.test('should never overwrite a commit pushed between the read and the update', async (t) => {
    const head = (await branchCommit(gitdir, 'main'))!;
    const later = await push({ 'race.mdx': 'pushed first\n' });
    t.equal(await compareAndSwapBranch(gitdir, 'main', head, head), false, 'a stale expected head is refused');
    t.equal(await branchCommit(gitdir, 'main'), later);
    // Publishes and pushes at once: every one of them ends in the history.
    const base = later;
    const publishes: Promise<{ commit: string }>[] = [];
    for (let i = 0; i < 4; i++) {
      publishes.push(publishDrafts(deps, proj, { drafts: [{ path: `p${i}.mdx`, kind: 'text', content: `${i}\n`, base_commit: base, base_blob: null, renamed_from: null }], message: `publish ${i}`, by }));
    }
    const pushedCommits: string[] = [];
    // A push that loses to a publish is refused (not a fast-forward) and made again on top, as a person would.
    const pushUntilAccepted = async (files: Record<string, string>) => {
      for (let attempt = 1; ; attempt++) {
        try { return await push(files); } catch (err) { if (attempt === 20) throw err; }
      }
    };
    for (let i = 0; i < 3; i++) pushedCommits.push(await pushUntilAccepted({ [`q${i}.mdx`]: `${i}\n` }));
    const published = await Promise.all(publishes);
    const final = (await branchCommit(gitdir, 'main'))!;
    for (const c of [...pushedCommits, ...published.map((p) => p.commit)]) {
      t.equal((await runGit(['merge-base', '--is-ancestor', c, final], { cwd: gitdir, allowFail: true })).code, 0, `${c.slice(0, 7)} is in the history`);
    }
  });

  await t.test('should start over when a push lands between reading the branch and moving it', async (t) => {
    const repoAccess = await import('../../src/editor/repo-access.ts');
    let raced: string | undefined;
    // The first time the publish moves the branch, a push lands just before it.
    const { publishDrafts: publishRaced } = await t.mockImport<typeof import('../../src/editor/publish/publish.ts')>('../../src/editor/publish/publish.ts', {
      '../../src/editor/repo-access.ts': {
        ...repoAccess,
        pushBranch: async (...args: Parameters<typeof repoAccess.pushBranch>) => {
          if (!raced) raced = await push({ 'raced.mdx': 'pushed in between\n' });
          return repoAccess.pushBranch(...args);
        },
      },
    });
    const base = (await branchCommit(gitdir, 'main'))!;
    const out = await publishRaced(deps, proj, { drafts: [{ path: 'after-race.mdx', kind: 'text', content: 'published\n', base_commit: base, base_blob: null, renamed_from: null }], message: 'Raced', by });
    t.ok(raced);
    t.equal((await runGit(['rev-parse', `${out.commit}^`], { cwd: gitdir })).stdout.toString().trim(), raced, 'the publish was made again on top of the push');
    t.equal(await show(`${out.commit}:raced.mdx`), 'pushed in between\n', 'the push is kept');
    t.equal(await show(`${out.commit}:after-race.mdx`), 'published\n');
    t.equal(await branchCommit(gitdir, 'main'), out.commit);
  });

  await t.test('should publish binary files as their bytes, and refuse deleting a file changed upstream', async (t) => {
    const base = (await branchCommit(gitdir, 'main'))!;
    const bytes = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0xff, 0x0a]);
    const out = await publishDrafts(deps, proj, { drafts: [{ path: 'images/logo.png', kind: 'binary', content: bytes.toString('base64'), base_commit: base, base_blob: null, renamed_from: null }], message: 'Logo', by });
    t.ok((await runGit(['cat-file', 'blob', `${out.commit}:images/logo.png`], { cwd: gitdir })).stdout.equals(bytes), 'the bytes, not their base64');

    const start = out.commit;
    const deletion = await draft('race.mdx', null, start);
    const pushed = await push({ 'race.mdx': 'changed upstream\n' });
    const err = await publishDrafts(deps, proj, { drafts: [deletion], message: 'Delete', by }).catch((e) => e);
    t.equal(err.code, 'merge_conflict');
    t.same(err.extra.conflicts, [{ path: 'race.mdx', binary: false, base: 'pushed first\n', ours: '', theirs: 'changed upstream\n', merged_with_markers: '<<<<<<< draft (deleted)\n=======\nchanged upstream\n>>>>>>> main\n' }], 'the change upstream is not dropped');
    t.equal(await branchCommit(gitdir, 'main'), pushed);
    const fresh = await draft('race.mdx', null, pushed);
    const gone = await publishDrafts(deps, proj, { drafts: [fresh], message: 'Delete', by });
    t.equal((await runGit(['cat-file', '-e', `${gone.commit}:race.mdx`], { cwd: gitdir, allowFail: true })).code, 128, 'deleted once it is the file the draft saw');
  });

  await t.test('should publish to a new branch from the production head and queue its preview', async (t) => {
    const head = (await branchCommit(gitdir, 'main'))!;
    const out = await publishDrafts(deps, proj, { drafts: [await draft('docs.json', '{"name":"Docs (branch)"}\n', head)], message: 'On a branch', branch: 'review-1', by });
    t.equal(out.branch, 'review-1');
    t.equal((await runGit(['rev-parse', `${out.commit}^`], { cwd: gitdir })).stdout.toString().trim(), head);
    t.equal(await branchCommit(gitdir, 'main'), head, 'production did not move');
    const d = await api.cp.m.Deployment.findById(out.deployment_id).lean();
    t.equal(d?.preview_label, 'review-1');
    t.equal(out.site_url, d?.preview_url);
  });

  await t.test('should fast-forward a branch into production, and make a merge commit after production moved', async (t) => {
    const ff = await mergeBranch(deps, proj, 'review-1', by);
    t.equal(ff.fast_forward, true);
    t.equal(ff.commit, await branchCommit(gitdir, 'review-1'));
    t.equal(await branchCommit(gitdir, 'main'), ff.commit);
    t.ok(ff.deployment_id);

    const head = ff.commit;
    await publishDrafts(deps, proj, { drafts: [{ path: 'branch-page.mdx', kind: 'text', content: 'from the branch\n', base_commit: head, base_blob: null, renamed_from: null }], message: 'Branch page', branch: 'review-1', by });
    const moved = await push({ 'main-page.mdx': 'from main\n' });
    const merged = await mergeBranch(deps, proj, 'review-1', by);
    t.equal(merged.fast_forward, false);
    const parents = (await runGit(['log', '-1', '--format=%P|%an|%cn|%s', merged.commit], { cwd: gitdir })).stdout.toString().trim();
    t.equal(parents, `${moved} ${await branchCommit(gitdir, 'review-1')}|Grace Hopper|Folio Test|Merge branch 'review-1' into main`);
    t.match(await show(`${merged.commit}:branch-page.mdx`), 'from the branch');
    t.match(await show(`${merged.commit}:main-page.mdx`), 'from main');

    const again = await mergeBranch(deps, proj, 'review-1', by);
    t.same({ commit: again.commit, deployment_id: again.deployment_id }, { commit: merged.commit, deployment_id: null }, 'already merged: nothing to do');
  });

  await t.test('should answer a conflicting branch merge with Git\'s conflict and commit nothing', async (t) => {
    const head = (await branchCommit(gitdir, 'main'))!;
    await publishDrafts(deps, proj, { drafts: [await draft('docs.json', '{"name":"Branch name"}\n', head)], message: 'Rename on the branch', branch: 'review-2', by });
    const moved = await push({ 'docs.json': '{"name":"Main name"}\n' });
    const err = await mergeBranch(deps, proj, 'review-2', by).catch((e) => e);
    t.equal(err.code, 'merge_conflict');
    t.equal(err.extra.conflicts.length, 1);
    const c = err.extra.conflicts[0];
    t.same({ path: c.path, base: c.base, ours: c.ours, theirs: c.theirs }, { path: 'docs.json', base: '{"name":"Docs (branch)"}\n', ours: '{"name":"Main name"}\n', theirs: '{"name":"Branch name"}\n' });
    t.match(c.merged_with_markers, /<<<<<<< .*\n\{"name":"Main name"\}\n=======\n\{"name":"Branch name"\}\n>>>>>>> /);
    t.equal(await branchCommit(gitdir, 'main'), moved);

    // A branch with no history in common with production: no merge Git would make.
    const tree = (await runGit(['write-tree'], { cwd: gitdir, env: { GIT_INDEX_FILE: `${gitdir}/index-empty-test` } })).stdout.toString().trim();
    const orphan = (await runGit(['commit-tree', tree, '-m', 'orphan'], { cwd: gitdir, env: GIT_ENV })).stdout.toString().trim();
    await runGit(['update-ref', 'refs/heads/orphan', orphan], { cwd: gitdir });
    const unrelated = await mergeBranch(deps, proj, 'orphan', by).catch((e) => e);
    t.same([unrelated.status, unrelated.code, unrelated.message], [409, 'merge_failed', 'Git cannot merge these branches (they may share no history); merge them with git and push the result']);
    t.equal(await branchCommit(gitdir, 'main'), moved);
  });
});
