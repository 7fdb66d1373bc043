/**
 * Documents over MongoDB's 16 MiB limit are refused as mongod refuses them (10334
 * `BSONObjectTooLarge`), never stored and never a `RangeError` from encoding the journal or a
 * reply. Runs against real MongoDB too when `MONGODB_URI` is set.
 */
import t from 'tap';
import { forEachTarget } from './helpers/targets.ts';

const MiB = 1024 * 1024;
const text = (bytes: number) => 'x'.repeat(bytes);

t.test('document size limit', async (t) => {
  forEachTarget(t, async (t, { db }) => {
    const pages = db.collection<{ _id: string; body?: string; more?: string }>('pages');

    await t.test('should store and read back a document just under 16 MiB', async (t) => {
      await pages.insertOne({ _id: 'fits', body: text(16 * MiB - 1024) });
      const back = await pages.findOne({ _id: 'fits' });
      t.equal(back?.body?.length, 16 * MiB - 1024);
    });

    await t.test('should refuse an insert over 16 MiB with BSONObjectTooLarge', async (t) => {
      const err = await pages.insertOne({ _id: 'big', body: text(16 * MiB + 4096) }).catch((e: unknown) => e);
      t.match(err, { name: 'MongoServerError', code: 10334 });
      t.equal(await pages.countDocuments({ _id: 'big' }), 0);
    });

    await t.test('should refuse an upsert over 16 MiB with BSONObjectTooLarge', async (t) => {
      const err = await pages.updateOne({ _id: 'upserted' }, { $set: { body: text(16 * MiB + 4096) } }, { upsert: true }).catch((e: unknown) => e);
      t.match(err, { name: 'MongoServerError', code: 10334 });
      t.equal(await pages.countDocuments({ _id: 'upserted' }), 0);
    });

    await t.test('should refuse an update that grows a document past 16 MiB and keep it as it was', async (t) => {
      await pages.insertOne({ _id: 'grows', body: text(10 * MiB) });
      const err = await pages.updateOne({ _id: 'grows' }, { $set: { more: text(7 * MiB) } }).catch((e: unknown) => e);
      // mongod's update stage reports 17419 in some versions; the embedded server answers 10334.
      t.ok([10334, 17419].includes((err as { code?: number }).code!), `code ${(err as { code?: number }).code}`);
      const back = await pages.findOne({ _id: 'grows' });
      t.same([back?.body?.length, back?.more], [10 * MiB, undefined]);
    });
  });
});
