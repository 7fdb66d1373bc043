/**
 * Editing together through the collaboration socket on a real platform: the shared document
 * starts from the file at the branch head, two people typing in the same paragraph at once
 * converge to the same text, the draft (what publish and preview read) follows, and a draft
 * saved, published or discarded elsewhere resets the shared document for everyone.
 */
import t from 'tap';
import { discardDrafts, getDraft, saveDraft } from '../../src/editor/drafts.ts';
import { startTestPlatform } from '../helpers/platform.ts';
import { client, collabUrl, member, until } from './collab-clients.ts';

const tp = await startTestPlatform();
t.teardown(() => tp.close());
const origin = new URL(tp.p.cp.apiUrl).origin;
const slug = `collab-sync-${process.pid}`;
const project = (await tp.api('POST', '/projects', { name: 'Docs', slug })).body;
const START = '# Guide\n\nThe first paragraph.\n';
await (await tp.workingCopy(slug, { 'guide.mdx': START, 'docs.json': '{"name":"Docs","navigation":[{"group":"G","pages":["guide"]}]}' })).push();
const url = collabUrl(origin, project.id);
const ada = await member(tp.p.cp.m, origin, tp.orgId, 'editor', 'Ada');
const bo = await member(tp.p.cp.m, origin, tp.orgId, 'editor', 'Bo');
const deps = tp.p.cp.deps;

t.test('two people edit the same paragraph at once and converge; the draft follows', async (t) => {
  const a = client(url, 'guide.mdx', { cookie: ada.cookie, origin });
  const b = client(url, 'guide.mdx', { cookie: bo.cookie, origin });
  t.same(await a.ready, { scope: 'read-write' });
  t.same(await b.ready, { scope: 'read-write' });
  await until(() => a.provider.isSynced && b.provider.isSynced, 'both clients to sync');
  t.equal(a.text.toString(), START, 'the document starts from the file at the head');
  t.equal(b.text.toString(), START);
  // Both type into the same paragraph in the same tick, before either sees the other's edit.
  const at = START.indexOf('first');
  a.text.insert(at, 'very ');
  b.text.insert(at + 'first '.length, 'shared ');
  b.text.delete(START.indexOf('The'), 4);
  await until(() => a.text.toString() === b.text.toString() && a.text.toString() !== START, 'convergence');
  const merged = a.text.toString();
  t.equal(merged, '# Guide\n\nvery first shared paragraph.\n');
  await until(async () => (await getDraft(deps, project.id, 'guide.mdx'))?.content === merged, 'the draft to hold the shared text');
  const draft = await getDraft(deps, project.id, 'guide.mdx');
  t.ok(draft && [ada.userId, bo.userId].includes(draft.updated_by), 'saved in the name of one of the writers');
  t.match(b.statuses.at(-1), { readOnly: false, editingBy: ['Ada'] }, 'each learns who else edits');
  a.destroy();
  b.destroy();
});

t.test('a draft saved, then discarded, elsewhere resets the open document', async (t) => {
  const a = client(url, 'guide.mdx', { cookie: ada.cookie, origin });
  t.same(await a.ready, { scope: 'read-write' });
  await until(() => a.provider.isSynced, 'sync');
  await saveDraft(deps, project.id, bo.userId, { path: 'guide.mdx', content: '# Guide\n\nSaved through the file route.\n' });
  await until(() => a.text.toString() === '# Guide\n\nSaved through the file route.\n', 'the saved draft to reach the client');
  await discardDrafts(deps, project.id, ['guide.mdx']);
  await until(() => a.text.toString() === START, 'the head text after the discard');
  await new Promise((r) => setTimeout(r, 1500));
  t.equal(await getDraft(deps, project.id, 'guide.mdx'), undefined, 'a reset makes no draft of its own');
  a.destroy();
});

t.test('a document reopened after everyone left keeps its text; a new file starts empty', async (t) => {
  const a = client(url, 'new-page.mdx', { cookie: ada.cookie, origin });
  t.same(await a.ready, { scope: 'read-write' });
  await until(() => a.provider.isSynced, 'sync');
  t.equal(a.text.toString(), '');
  a.text.insert(0, '# New page\n');
  await until(async () => (await getDraft(deps, project.id, 'new-page.mdx'))?.content === '# New page\n', 'the draft of the new page');
  a.destroy();
  await new Promise((r) => setTimeout(r, 500));
  const b = client(url, 'new-page.mdx', { cookie: bo.cookie, origin });
  t.same(await b.ready, { scope: 'read-write' });
  await until(() => b.provider.isSynced, 'sync');
  t.equal(b.text.toString(), '# New page\n');
  b.destroy();
});

t.test('presence: who has which file open, on the project channel', async (t) => {
  const a = client(url, ':presence', { cookie: ada.cookie, origin });
  const b = client(url, ':presence', { cookie: bo.cookie, origin });
  t.same(await a.ready, { scope: 'readonly' }, 'the channel is never written');
  t.same(await b.ready, { scope: 'readonly' });
  a.provider.setAwarenessField('user', { id: ada.userId, name: 'Ada' });
  a.provider.setAwarenessField('paths', ['guide.mdx']);
  await until(() => [...b.provider.awareness!.getStates().values()].some((s) => s.user?.name === 'Ada' && s.paths?.[0] === 'guide.mdx'), "Ada's open file to reach Bo");
  t.pass('awareness passes through the read-only channel');
  a.destroy();
  await until(() => ![...b.provider.awareness!.getStates().values()].some((s) => s.user?.name === 'Ada'), 'Ada to leave the channel');
  t.pass('leaving clears it');
  b.destroy();
});
