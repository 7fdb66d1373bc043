import type { Document } from 'bson';
import { Query } from 'mingo/query';
import type { Collection } from './collection.ts';
import { toCommandError } from './errors.ts';
import { runNative } from './native-pipeline.ts';
import { compileFilter, mingoOptions, runPipeline, TEXT_SCORE_FIELD } from './mingo-context.ts';
import { extractText, textSearch } from './text-search.ts';

/** What a find-like read asks for. */
export interface ReadSpec {
  filter?: Document;
  sort?: Document;
  projection?: Document;
  skip?: number;
  limit?: number;
}

const isTextMeta = (v: unknown): boolean => !!v && typeof v === 'object' && (v as Document).$meta === 'textScore';

/** Replaces `{ $meta: "textScore" }` sort keys with the hidden score field, highest first. */
function translateSort(sort: Document | undefined): Document | undefined {
  if (!sort || Object.keys(sort).length === 0) return undefined;
  const out: Document = {};
  for (const [k, v] of Object.entries(sort)) {
    if (isTextMeta(v)) out[TEXT_SCORE_FIELD] = -1;
    else out[k] = v;
  }
  return out;
}

/**
 * The documents a read selects, in order, projected. Without a projection the stored objects
 * themselves are returned (callers that write must clone). `$text` is resolved first and its score
 * rides along in a hidden field for `$meta` sorts and projections, then removed.
 */
export function selectDocs(coll: Collection | undefined, spec: ReadSpec): Document[] {
  try {
    const { text, rest } = extractText(spec.filter);
    let docs: Document[];
    if (text) {
      docs = [...textSearch(coll, text)].map(([doc, score]) => ({ ...doc, [TEXT_SCORE_FIELD]: score }));
      if (rest && Object.keys(rest).length > 0) {
        const q = compileFilter(rest);
        docs = docs.filter((d) => q.test(d));
      }
    } else {
      docs = coll ? coll.find(rest) : [];
    }
    const sort = translateSort(spec.sort);
    const skip = spec.skip ?? 0;
    const limit = spec.limit ? Math.abs(spec.limit) : 0;
    if ((sort || skip || limit) && (docs.length > 1 || skip > 0)) {
      let cursor = new Query({}, mingoOptions()).find(docs);
      if (sort) cursor = cursor.sort(sort as never);
      if (skip) cursor = cursor.skip(skip);
      if (limit) cursor = cursor.limit(limit);
      docs = cursor.all() as Document[];
    }
    return project(docs, spec.projection, !!text);
  } catch (err) {
    throw toCommandError(err);
  }
}

/** Applies a find projection, including `{ $meta: "textScore" }` fields. */
export function project(docs: Document[], projection: Document | undefined, scored: boolean): Document[] {
  const meta = Object.entries(projection ?? {}).filter(([, v]) => isTextMeta(v)).map(([k]) => k);
  const plain = Object.fromEntries(Object.entries(projection ?? {}).filter(([, v]) => !isTextMeta(v)));
  let out = docs;
  if (Object.keys(plain).length > 0) {
    out = new Query({}, mingoOptions()).find(docs, plain as never).all() as Document[];
    if (scored) out = out.map((d, i) => ({ ...d, [TEXT_SCORE_FIELD]: docs[i][TEXT_SCORE_FIELD] }));
  }
  if (!scored) return out;
  return out.map((d) => {
    const { [TEXT_SCORE_FIELD]: score, ...rest } = d;
    for (const k of meta) rest[k] = score;
    return rest;
  });
}

/**
 * Runs an aggregation pipeline over a collection. A leading `$match` with `$text` is evaluated
 * against the text index; `$meta: "textScore"` then works in later stages. Pipelines of the
 * shapes native-pipeline.ts covers run there, the rest in mingo.
 */
export function aggregateDocs(coll: Collection | undefined, pipeline: Document[], resolve: (name: string) => Document[]): Document[] {
  try {
    let input: Document[];
    let stages = pipeline;
    let scored = false;
    const first = pipeline[0]?.$match as Document | undefined;
    const { text, rest } = extractText(first);
    if (text) {
      scored = true;
      input = [...textSearch(coll, text)].map(([doc, score]) => ({ ...doc, [TEXT_SCORE_FIELD]: score }));
      stages = [...(rest && Object.keys(rest).length ? [{ $match: rest }] : []), ...pipeline.slice(1)];
    } else if (first) {
      // A leading $match selects through the collection (index lookup, native filter) before
      // the pipeline copies its input, so only matching documents are copied and processed.
      input = coll ? coll.find(first) : [];
      stages = pipeline.slice(1);
    } else {
      input = coll ? [...coll.docs.values()] : [];
    }
    if (!scored) {
      const native = runNative(input, stages);
      if (native) return native;
    }
    stages = stages.map((s) => (s.$sort ? { $sort: translateSort(s.$sort as Document) } : s));
    const out = runPipeline(input, stages, resolve);
    if (!scored) return out;
    return out.map((d) => {
      if (!(TEXT_SCORE_FIELD in d)) return d;
      const { [TEXT_SCORE_FIELD]: _score, ...rest } = d;
      return rest;
    });
  } catch (err) {
    throw toCommandError(err);
  }
}
