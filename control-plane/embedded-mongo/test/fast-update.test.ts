import type { Document } from 'bson';
import t from 'tap';
import { cloneDoc } from '../src/bson-values.ts';
import { fastModify } from '../src/fast-update.ts';
import { applyModifier } from '../src/mingo-context.ts';

const DOC: Document = { _id: 'r1', c: { views: 2, up: 1 }, pv: { 'k/a': 1 }, pages: ['/a', '/b'], n: 5, s: 'x' };

t.test('native counter updates', async (t) => {
  t.test('should give exactly the document mingo gives, without modifying the stored one', async (t) => {
    const cases: Document[] = [
      { $inc: { 'c.views': 3, 'c.down': 1, n: -5 } },
      { $inc: { 'pv.k/b': 1, 'air.kGPTBot': 2 } },
      { $inc: { 'c.views': 0 } },
      { $addToSet: { pages: { $each: ['/b', '/c', '/c', '/d'] } } },
      { $addToSet: { pages: '/a' } },
      { $addToSet: { countries: { $each: ['DE', 'US'] }, 'deep.list': 1 } },
      { $inc: { 'c.views': 1 }, $addToSet: { pages: { $each: [null, true, 2] } } },
    ];
    for (const modifier of cases) {
      const before = JSON.stringify(DOC);
      const fast = fastModify(DOC, modifier);
      t.ok(fast, `${JSON.stringify(modifier)} runs natively`);
      const expected = cloneDoc(DOC);
      const changed = applyModifier(expected, modifier, undefined, {});
      t.same(fast!.doc, expected, JSON.stringify(modifier));
      t.equal(fast!.changed, JSON.stringify(expected) !== before, `changed flag of ${JSON.stringify(modifier)} (mingo lists ${changed.length})`);
      t.equal(JSON.stringify(DOC), before, 'the stored document is untouched');
    }
  });

  t.test('should leave every other shape to mingo', async (t) => {
    const cases: [string, Document][] = [
      ['$set', { $set: { n: 1 } }],
      ['$inc through a non-document', { $inc: { 'n.x': 1 } }],
      ['$inc by a non-number', { $inc: { n: '1' } }],
      ['$addToSet onto a non-array', { $addToSet: { n: 1 } }],
      ['$addToSet of a document', { $addToSet: { pages: { a: 1 } } }],
      ['$addToSet of an empty $each', { $addToSet: { pages: { $each: [] } } }],
      ['a positional path', { $inc: { 'pages.0': 1 } }],
      ['an _id path', { $inc: { '_id.x': 1 } }],
      ['overlapping paths', { $inc: { c: 1, 'c.views': 1 } }],
      ['one path under two operators', { $inc: { n: 1 }, $addToSet: { n: 2 } }],
    ];
    for (const [label, modifier] of cases) t.equal(fastModify(DOC, modifier), undefined, label);
  });

  t.test('should refuse $inc of a string field as mongod does (TypeMismatch), which mingo would pass over', async (t) => {
    t.throws(() => fastModify(DOC, { $inc: { s: 1 } }), { code: 14, codeName: 'TypeMismatch', message: /^Cannot apply \$inc to a value of non-numeric type\. .* has the field 's' of non-numeric type string$/ });
  });
});
