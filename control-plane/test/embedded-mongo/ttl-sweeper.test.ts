import t from 'tap';
import { Store } from '../../src/embedded-mongo/store.ts';
import { sweepExpired } from '../../src/embedded-mongo/ttl-sweeper.ts';

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
    store.ensure('app', 'plain').insert({ _id: 'x', seenAt: new Date(0) });
    t.equal(sweepExpired(store, now), 2);
    t.same([...sessions.docs.values()].map((d) => d._id), ['fresh', 'no-date']);
    t.equal(store.get('app', 'plain')!.docs.size, 1);
  });
});
