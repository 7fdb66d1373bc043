import t from 'tap';
import { collapseFreshQueued } from '../../src/db/collapse-fresh-queued.ts';
import { FRESH_QUEUED_INDEX } from '../../src/db/models/deployment.ts';
import { startTestApi } from '../helpers/api.ts';

t.test('collapseFreshQueued', async (t) => {
  const api = await startTestApi();
  t.teardown(() => api.close());
  const m = api.cp.m;
  const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s));

  t.test('should fold duplicate fresh queued deployments into the oldest so the unique index builds', async (t) => {
    // Data from before the index: drop it to write what concurrent triggers used to leave behind.
    await m.Deployment.collection.dropIndex(FRESH_QUEUED_INDEX);
    const seed = (id: string, project: string, s: number, sha: string | null, extra: Record<string, unknown> = {}) =>
      m.Deployment.create({ _id: id, project_id: project, status: 'queued', commit_sha: sha, started_at: at(s), ...extra });
    await seed('a1', 'p-a', 1, null);
    await seed('a2', 'p-a', 2, 'c'.repeat(40));
    await seed('a3', 'p-a', 3, null);
    await seed('a-retry', 'p-a', 0, null, { fencing: 2 });
    await seed('b1', 'p-b', 1, 'd'.repeat(40));
    t.equal(await collapseFreshQueued(m, at(9)), 2);
    const rows = await m.Deployment.find({}).sort({ _id: 1 }).lean();
    t.same(rows.map((d) => [d._id, d.status, d.commit_sha, d.error, d.finished_at?.toISOString() ?? null]), [
      ['a-retry', 'queued', null, null, null],
      ['a1', 'queued', 'c'.repeat(40), null, null],
      ['a2', 'failed', 'c'.repeat(40), 'Joined deployment a1, queued earlier for the same project', at(9).toISOString()],
      ['a3', 'failed', null, 'Joined deployment a1, queued earlier for the same project', at(9).toISOString()],
      ['b1', 'queued', 'd'.repeat(40), null, null],
    ]);
    await m.Deployment.createIndexes();
    const dup = await seed('b2', 'p-b', 2, null).catch((e) => e);
    t.same([dup.code, dup.keyValue], [11000, { project_id: 'p-b', preview_label: null }], 'the index holds again');
    t.equal(await collapseFreshQueued(m, at(10)), 0, 'nothing left to fold');
  });
});
