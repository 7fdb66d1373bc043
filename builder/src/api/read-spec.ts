/**
 * Reads the document named by `api.openapi`: JSON or YAML, OpenAPI 3.x or Swagger 2.0, with
 * every `$ref` resolved by `@apidevtools/swagger-parser`. Only references inside the document
 * are followed: external ones (other files, URLs) are refused, because the builder must not
 * read files outside the commit or reach the network on a customer's say.
 */
import SwaggerParser from '@apidevtools/swagger-parser';
import { parse as parseYaml } from 'yaml';
import { userError } from '../errors.ts';

/** A dereferenced OpenAPI document (loosely typed: customers' documents vary). */
export type OpenApiDocument = Record<string, any>;

/** Largest document read; the GitHub REST description is 13 MB. */
export const MAX_SPEC_BYTES = 64 * 1024 * 1024;

/**
 * Parses and dereferences `text`, the document at `name` (named in error messages after `key`,
 * the setting that named it: `api.openapi`, or a page's `openapi`).
 *
 * @throws BuilderError `invalid_openapi` (user) naming the document and the problem.
 */
export async function readSpec(text: string, name: string, key = 'api.openapi'): Promise<OpenApiDocument> {
  const fail = (why: string) => userError('invalid_openapi', `${key}: ${name}: ${why}`, { file: name });
  const doc = parseDocument(text, fail);
  if (typeof doc.openapi !== 'string' && typeof doc.swagger !== 'string') throw fail('Unexpected document; expected an "openapi" (3.x) or "swagger" (2.0) version field');
  // OpenAPI 3.1 lets a document hold only webhooks (or only components).
  if ((!doc.paths || typeof doc.paths !== 'object') && !['webhooks', 'components'].some((k) => doc[k] && typeof doc[k] === 'object')) throw fail('Unexpected document; expected a "paths" object');
  refuseExternal(doc, fail);
  try {
    return (await SwaggerParser.dereference(doc as any, {
      resolve: { external: false },
      dereference: { circular: true },
    })) as OpenApiDocument;
  } catch (err) {
    throw fail(`Unexpected reference or structure (${(err as Error).message.split('\n')[0]}); expected references inside the document (#/...)`);
  }
}

/**
 * `text` as an object, JSON or YAML (at most {@link MAX_SPEC_BYTES}); `fail` makes the error
 * naming the document.
 */
export function parseDocument(text: string, fail: (why: string) => Error): Record<string, any> {
  if (text.length > MAX_SPEC_BYTES) throw fail(`Unexpected size of ${Math.round(text.length / 1048576)} MB; the limit is ${MAX_SPEC_BYTES / 1048576} MB`);
  let parsed: unknown;
  try {
    parsed = /^\s*[{[]/.test(text) ? JSON.parse(text) : parseYaml(text, { maxAliasCount: 1000 });
  } catch (err) {
    throw fail(`Unexpected syntax (${(err as Error).message.split('\n')[0]}); expected a JSON or YAML document`);
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw fail('Unexpected content; expected an object');
  return parsed as Record<string, any>;
}

/** Throws `fail`'s error when a `$ref` of `doc` points outside it (another file, a URL), naming where. */
export function refuseExternal(doc: unknown, fail: (why: string) => Error): void {
  const external = externalRef(doc, []);
  if (external) throw fail(`Unexpected $ref "${external.ref}" at ${external.at.join('.')}; expected references inside the document (#/...)`);
}

/** The first `$ref` pointing outside the document (another file, a URL), with where it is. */
function externalRef(value: unknown, at: string[]): { ref: string; at: string[] } | undefined {
  if (!value || typeof value !== 'object') return undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) { const found = externalRef(value[i], [...at, String(i)]); if (found) return found; }
    return undefined;
  }
  const ref = (value as Record<string, unknown>).$ref;
  if (typeof ref === 'string' && !ref.startsWith('#')) return { ref, at };
  for (const [key, child] of Object.entries(value)) { const found = externalRef(child, [...at, key]); if (found) return found; }
  return undefined;
}
