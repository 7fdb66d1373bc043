import t from 'tap';
import { Store } from '../src/store.ts';
import { sweepExpired } from '../src/ttl-sweeper.ts';

t.test('ttl sweeper', async (t) => {
  await t.test('should remove only documents whose TTL date has passed', async (t) => {
    const store = new Store();
    const sessions = store.ensure('app', 'sessions');
    sessions.createIndex({ key: { seenAt: 1 }, name: 'seenAt_1', expireAfterSeconds: 60 });
    const now = Date.parse('2024-01-01T12:00:00Z');
    sessions.insert({ _id: 'old', seenAt: new Date(now - 61_000) });
    sessions.insert({ _id: 'fresh', seenAt: new Date(now - 59_000) });
    sessions.insert({ _id: 'array', seenAt: [new Date(now), new Date(now - 120_000)] });
    sessions.insert({ _id: 'no-date', seenAt: 'yesterday' });
    sessions.insert({ _id: 'missing' });
    sessions.insert({ _id: 'old-in-array', seenAt: [new Date(now - 61_000)] });
    store.ensure('app', 'plain').insert({ _id: 'x', seenAt: new Date(0) });
    t.equal(sweepExpired(store, now), 3);
    t.same([...sessions.docs.values()].map((d) => d._id), ['fresh', 'no-date', 'missing']);
    t.equal(store.get('app', 'plain')!.docs.size, 1);
  });

  await t.test('should expire by a dotted path, the earliest date of the documents it reaches', async (t) => {
    const store = new Store();
    const coll = store.ensure('app', 'nested');
    coll.createIndex({ key: { 'meta.at': 1 }, name: 'meta.at_1', expireAfterSeconds: 10 });
    const now = Date.parse('2024-01-01T12:00:00Z');
    coll.insert({ _id: 'old', meta: { at: new Date(now - 11_000) } });
    coll.insert({ _id: 'fresh', meta: { at: new Date(now) } });
    coll.insert({ _id: 'list', meta: [{ at: new Date(now) }, { at: new Date(now - 20_000) }] });
    t.equal(sweepExpired(store, now), 2);
    t.same([...coll.docs.values()].map((d) => d._id), ['fresh']);
  });
});
