/**
 * The draft store's functions as the publishing, preview and collaboration code call them:
 * bases recorded on the first save, revision checks, notifications, and removal of published
 * drafts that leaves a draft saved again meanwhile.
 */
import t from 'tap';
import { discardDrafts, discardPublished, getDraft, listDrafts, onDraftChange, saveDraft } from '../../src/editor/drafts.ts';
import { startTestPlatform } from '../helpers/platform.ts';

t.test('draft store', async (t) => {
  const tp = await startTestPlatform();
  t.teardown(() => tp.close());
  const deps = tp.p.cp.deps;
  const project = (await tp.api('POST', '/projects', { name: 'Docs', slug: `store-${process.pid}` })).body;
  const wc = await tp.workingCopy(project.slug, { 'index.mdx': '# Home\n' });
  const head = await wc.push();
  const heard: string[] = [];
  const stop = onDraftChange((projectId, path) => { if (projectId === project.id) heard.push(path); });
  t.teardown(stop);

  t.test('should record the base on the first save only', async (t) => {
    const first = await saveDraft(deps, project.id, 'u1', { path: 'index.mdx', content: '# One\n' });
    t.same([first.base_commit, first.revision, first.kind, first.renamed_from], [head, 1, 'text', null]);
    t.match(first.base_blob, /^[0-9a-f]{40}$/);
    const fresh = await saveDraft(deps, project.id, 'u1', { path: 'new.mdx', content: 'x' });
    t.same([fresh.base_commit, fresh.base_blob], [head, null], 'a new file has no base blob');
    await wc.write({ 'index.mdx': '# Pushed\n' });
    await wc.push();
    const second = await saveDraft(deps, project.id, 'u2', { path: 'index.mdx', content: '# Two\n', revision: 1 });
    t.same([second.base_commit, second.base_blob, second.revision, second.updated_by], [head, first.base_blob, 2, 'u2'], 'the base stays where the draft began');
    const record = await getDraft(deps, project.id, 'index.mdx');
    t.same([record?.created_by, record?.updated_by], ['u1', 'u2']);
  });

  t.test('should refuse a stale revision with draft_conflict', async (t) => {
    await t.rejects(saveDraft(deps, project.id, 'u1', { path: 'index.mdx', content: 'late', revision: 1 }), { status: 409, code: 'draft_conflict', message: 'The draft of index.mdx changed since the revision you edited; reload it and apply your change again' });
    await t.rejects(saveDraft(deps, project.id, 'u1', { path: 'index.mdx', content: 'late', revision: 0 }), { code: 'draft_conflict' }, 'revision 0 expects no draft');
    const results = await Promise.allSettled([1, 2, 3].map((n) => saveDraft(deps, project.id, 'u1', { path: 'race.mdx', content: `${n}`, revision: 0 })));
    t.same(results.filter((r) => r.status === 'fulfilled').length, 1, 'one of three racing first saves wins');
  });

  t.test('should remove published drafts but keep one saved again meanwhile', async (t) => {
    const published = (await listDrafts(deps, project.id)).filter((d) => d.path !== 'race.mdx').map((d) => ({ path: d.path, revision: d.revision }));
    await saveDraft(deps, project.id, 'u1', { path: 'new.mdx', content: 'typed during the publish' });
    heard.length = 0;
    t.equal(await discardPublished(deps, project.id, published), 1);
    t.same((await listDrafts(deps, project.id)).map((d) => [d.path, d.content]), [['new.mdx', 'typed during the publish'], ['race.mdx', (await getDraft(deps, project.id, 'race.mdx'))!.content]]);
    t.same(heard.sort(), ['index.mdx', 'new.mdx']);
    t.equal(await discardDrafts(deps, project.id), 2);
    t.same(await listDrafts(deps, project.id), []);
  });
});
