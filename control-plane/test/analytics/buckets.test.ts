/**
 * The overview's bucket boundaries (analytics/buckets.ts) are the database's own `$dateTrunc`
 * boundaries: zones with DST, with part-hour offsets, with midnight skipped or repeated, and with
 * an offset that changed since 2000 (where mongod counts hours from). Runs on the embedded
 * database, and on real MongoDB when MONGODB_URI is set.
 */
import { randomBytes } from 'node:crypto';
import { tzScan } from '@date-fns/tz';
import t from 'tap';
import { bucketOf, bucketStarts, START_OF_WEEK, type Unit } from '../../src/analytics/buckets.ts';
import { connectDatabase } from '../../src/db/connect.ts';

const ZONES = ['UTC', 'Europe/Berlin', 'America/New_York', 'Asia/Kolkata', 'Asia/Kathmandu', 'Australia/Lord_Howe', 'America/Santiago', 'America/Havana', 'Pacific/Chatham'];
/** Zones whose clock showed a midnight twice, in the year it did. */
const REPEATED_MIDNIGHTS: Record<string, number> = { 'Asia/Amman': 2018, 'Antarctica/Casey': 2020 };
const UNITS: Unit[] = ['minute', 'hour', 'day', 'week', 'month'];
const HOUR = 3_600_000;

/** Every 5 h 7 min over a year, and the instants around each of the zone's offset changes in it. */
function instants(tz: string): number[] {
  const year = REPEATED_MIDNIGHTS[tz];
  const [from, to] = year ? [Date.UTC(year, 0, 1), Date.UTC(year + 1, 0, 1)] : [Date.UTC(2025, 11, 1), Date.UTC(2026, 11, 1)];
  const out: number[] = [];
  for (let at = from; at < to; at += 5 * HOUR + 7 * 60_000) out.push(at);
  for (const { date } of tzScan(tz, { start: new Date(from), end: new Date(to) })) {
    for (const d of [-HOUR, -1, 0, 1, HOUR / 2, HOUR]) out.push(date.getTime() + d);
  }
  return out;
}

t.test('analytics bucket boundaries', async (t) => {
  const db = await connectDatabase({ mongodbUri: process.env.MONGODB_URI, dbName: `folio_buckets_${randomBytes(4).toString('hex')}` });
  const probes = db.connection.db!.collection<{ at: Date }>('bucket_probes');
  t.teardown(async () => {
    await db.connection.db!.dropDatabase().catch(() => {});
    await db.close();
  });

  for (const tz of [...ZONES, ...Object.keys(REPEATED_MIDNIGHTS)]) {
    t.test(`should cut every unit where the database's $dateTrunc cuts it in ${tz}`, async (t) => {
      await probes.deleteMany({});
      await probes.insertMany(instants(tz).map((ms) => ({ at: new Date(ms) })));
      for (const unit of UNITS) {
        const rows = await probes.aggregate<{ at: Date; bucket: Date }>([
          { $project: { _id: 0, at: 1, bucket: { $dateTrunc: { date: '$at', unit, timezone: tz, startOfWeek: START_OF_WEEK } } } },
          { $sort: { at: 1 } },
        ]).toArray();
        const wrong = rows.filter((r) => bucketOf(r.at, unit, tz).getTime() !== r.bucket.getTime());
        t.same(wrong.map((r) => [r.at.toISOString(), bucketOf(r.at, unit, tz).toISOString()]), [], `${unit}: ${rows.length} instants`);
      }
    });
  }

  t.test('should list each bucket of a window once, in order, starting with the one holding from', async (t) => {
    const from = new Date(Date.UTC(2026, 2, 1, 13, 30));
    const to = new Date(Date.UTC(2026, 5, 1));
    for (const tz of ZONES) {
      for (const unit of ['hour', 'day', 'week', 'month'] as const) {
        const expected = new Set<number>();
        for (let at = from.getTime(); at < to.getTime(); at += HOUR / 2) expected.add(bucketOf(new Date(at), unit, tz).getTime());
        t.same(bucketStarts(from, to, unit, tz, 10_000).map((d) => d.getTime()), [...expected], `${unit} in ${tz}`);
      }
    }
  });
});
