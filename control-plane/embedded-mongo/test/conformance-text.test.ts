import t from 'tap';
import { forEachTarget } from './helpers/targets.ts';

t.test('conformance: text search', async (t) => {
  forEachTarget(t, async (t, { db }) => {
    const pages = db.collection('pages');
    await pages.insertMany([
      { _id: 'guide' as never, title: 'Deploy guide', body: 'How to deploy a site' },
      { _id: 'search' as never, title: 'Search', body: 'search and deploy' },
      { _id: 'charts' as never, title: 'Analytics', body: 'charts' },
      { _id: 'deploy' as never, title: 'Deploy', body: 'deploy the thing' },
    ]);
    await pages.createIndex({ title: 'text', body: 'text' }, { weights: { title: 10, body: 1 }, name: 'page_text' });

    await t.test('should list the text index in mongod form', async (t) => {
      const index = (await pages.listIndexes().toArray()).find((i) => i.name === 'page_text');
      t.same([index?.key, index?.weights], [{ _fts: 'text', _ftsx: 1 }, { title: 10, body: 1 }]);
    });

    await t.test('should order matches by textScore', async (t) => {
      const docs = await pages.find({ $text: { $search: 'deploy' } }, { projection: { score: { $meta: 'textScore' } } }).sort({ score: { $meta: 'textScore' } }).toArray();
      t.same(docs.map((d) => d._id), ['deploy', 'guide', 'search']);
      t.ok(docs.every((d, i) => typeof d.score === 'number' && (i === 0 || d.score <= docs[i - 1].score)), 'scores are numbers, highest first');
      t.same(Object.keys(docs[0]).sort(), ['_id', 'body', 'score', 'title']);
    });

    await t.test('should OR terms, AND phrases and exclude negated words', async (t) => {
      const ids = async (search: string): Promise<string[]> => (await pages.find({ $text: { $search: search } }).toArray()).map((d) => String(d._id)).sort();
      t.same(await ids('charts search'), ['charts', 'search']);
      t.same(await ids('"deploy guide"'), ['guide']);
      t.same(await ids('deploy -search'), ['deploy', 'guide']);
      t.same(await ids('DEPLOY'), ['deploy', 'guide', 'search']);
      t.same(await ids('nothing'), []);
    });

    await t.test('should combine $text with other filters, count and aggregate', async (t) => {
      t.equal(await pages.countDocuments({ $text: { $search: 'deploy' }, title: { $ne: 'Search' } }), 2);
      const out = await pages.aggregate([
        { $match: { $text: { $search: 'deploy' } } },
        { $sort: { score: { $meta: 'textScore' } } },
        { $project: { _id: 1 } },
      ]).toArray();
      t.same(out, [{ _id: 'deploy' }, { _id: 'guide' }, { _id: 'search' }]);
    });

    await t.test('should refuse $text without a text index', async (t) => {
      const err = await db.collection('plain').find({ $text: { $search: 'x' } }).toArray().catch((e) => e);
      t.same([err.code, err.codeName], [27, 'IndexNotFound']);
    });
  });
});
