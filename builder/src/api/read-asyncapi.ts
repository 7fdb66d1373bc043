/**
 * Reads an AsyncAPI document (2.x or 3.x, JSON or YAML) for channel pages: parsed as OpenAPI
 * documents are, external references refused for the same reasons (the builder reads nothing
 * outside the commit and reaches no network on a customer's say), internal ones resolved by
 * `@apidevtools/json-schema-ref-parser` (the resolver under swagger-parser, without its OpenAPI
 * checks). `@asyncapi/parser` would validate more but brings a large dependency tree and its
 * own network resolvers for what a page shows.
 */
import { createRequire } from 'node:module';
import { userError } from '../errors.ts';
import { parseDocument, refuseExternal } from './read-spec.ts';

/**
 * json-schema-ref-parser, loaded when a document is read. swagger-parser (CommonJS) `require()`s
 * this ES module as it loads; imported statically here too, the bundled CLI loaded both at once
 * and Node failed with "Cannot require() ES Module … because it is not yet fully loaded".
 */
const refParser = () => createRequire(import.meta.url)('@apidevtools/json-schema-ref-parser') as typeof import('@apidevtools/json-schema-ref-parser');

/** A dereferenced AsyncAPI document (loosely typed: customers' documents vary). */
export type AsyncApiDocument = Record<string, any>;

/**
 * Parses and dereferences `text`, the document at `name`.
 *
 * @throws BuilderError `invalid_asyncapi` (user) naming the document and the problem.
 */
export async function readAsyncapi(text: string, name: string, key = 'asyncapi'): Promise<AsyncApiDocument> {
  const fail = (why: string) => userError('invalid_asyncapi', `${key}: ${name}: ${why}`, { file: name });
  const doc = parseDocument(text, fail);
  if (typeof doc.asyncapi !== 'string' || !/^[23]\./.test(doc.asyncapi)) throw fail('Unexpected document; expected an "asyncapi" version field of 2.x or 3.x');
  if (!doc.channels || typeof doc.channels !== 'object' || Array.isArray(doc.channels)) throw fail('Unexpected document; expected a "channels" object');
  refuseExternal(doc, fail);
  try {
    return (await refParser().dereference(doc as never, { resolve: { external: false }, dereference: { circular: true } })) as AsyncApiDocument;
  } catch (err) {
    throw fail(`Unexpected reference or structure (${(err as Error).message.split('\n')[0]}); expected references inside the document (#/...)`);
  }
}
