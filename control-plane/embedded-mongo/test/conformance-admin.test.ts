import t from 'tap';
import { forEachTarget } from './helpers/targets.ts';

t.test('conformance: handshake and administration', async (t) => {
  forEachTarget(t, async (t, { db, client }) => {
    const admin = client.db('admin');

    await t.test('should answer hello, isMaster, ping and buildInfo as a writable standalone', async (t) => {
      const hello = await admin.command({ hello: 1 });
      t.same([hello.isWritablePrimary, hello.ok, typeof hello.logicalSessionTimeoutMinutes], [true, 1, 'number']);
      t.ok(hello.maxWireVersion >= 21, `maxWireVersion ${hello.maxWireVersion} is at least 21`);
      t.equal(hello.setName, undefined);
      const legacy = await admin.command({ isMaster: 1 });
      t.equal(legacy.ismaster, true);
      t.same(await admin.command({ ping: 1 }), { ok: 1 });
      const info = await admin.command({ buildInfo: 1 });
      t.match(info.version, /^\d+\.\d+\.\d+/);
    });

    await t.test('should create, list with a filter, and drop collections', async (t) => {
      await db.createCollection('alpha');
      await db.collection('beta').insertOne({ x: 1 });
      const names = (await db.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name).sort();
      t.same(names, ['alpha', 'beta']);
      const filtered = await db.listCollections({ name: 'beta' }).toArray();
      t.same(filtered.map((c) => [c.name, c.type]), [['beta', 'collection']]);
      t.equal(await db.collection('alpha').drop(), true);
      t.same((await db.listCollections().toArray()).map((c) => c.name), ['beta']);
    });

    await t.test('should list and drop databases', async (t) => {
      const other = client.db(`${db.databaseName}_other`);
      await other.collection('c').insertOne({ a: 1 });
      const listed = (await client.db('admin').admin().listDatabases()).databases.map((d) => d.name);
      t.ok(listed.includes(db.databaseName) && listed.includes(other.databaseName), 'both databases are listed');
      t.equal(await other.dropDatabase(), true);
      const after = (await client.db('admin').admin().listDatabases()).databases.map((d) => d.name);
      t.notOk(after.includes(other.databaseName));
    });

    await t.test('should accept sessions and end them', async (t) => {
      const session = client.startSession();
      await db.collection('beta').insertOne({ y: 2 }, { session });
      t.equal(await db.collection('beta').countDocuments({}, { session }), 2);
      await session.endSession();
      t.same(await admin.command({ endSessions: [] }), { ok: 1 });
    });
  });
});
