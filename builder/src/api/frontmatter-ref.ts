/**
 * The values of Mintlify's API frontmatter keys, read:
 * - `openapi: GET /users`, `openapi: openapi.json GET /users`, `openapi: "v2/api.yaml POST /x"`,
 *   `openapi: webhook orderUpdated`, `openapi: openapi.json webhook orderUpdated`;
 * - `openapi-schema: Pet`, `openapi-schema: openapi.json Pet`;
 * - `asyncapi: channelName`, `asyncapi: /asyncapi.yaml channelName`.
 * A document is named first, by a path (from the content root, or the repository root when the
 * content root has no such file; a leading `/` or `./` is allowed) or an http(s) URL.
 */
import type { OperationRef } from './api-view.ts';

const METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

/** What an `openapi:` value names, or why it cannot be read. */
export type OpenapiFrontmatter = { file?: string; ref: OperationRef } | { problem: string };

/** What `openapi-schema:` and `asyncapi:` name: a document (optional) and one name in it. */
export type NamedInDocument = { file?: string; name: string } | { problem: string };

const words = (value: string) => value.trim().split(/\s+/).filter(Boolean);

/** Reads an `openapi:` value (see the module comment). */
export function readOpenapiFrontmatter(value: unknown): OpenapiFrontmatter {
  const expected = 'expected "METHOD /path", "file METHOD /path" or "webhook name", such as GET /users or openapi.json GET /users';
  if (typeof value !== 'string') return { problem: `Unexpected ${Array.isArray(value) ? 'list' : typeof value}; ${expected}` };
  const parts = words(value);
  const file = parts.length === 3 ? parts[0] : undefined;
  const [first, second] = file === undefined ? parts : parts.slice(1);
  if (parts.length < 2 || parts.length > 3 || second === undefined) return { problem: `Unexpected "${value.trim()}"; ${expected}` };
  if (first.toLowerCase() === 'webhook') return { ...(file ? { file } : {}), ref: { webhook: second } };
  if (!METHODS.has(first.toLowerCase()) || !second.startsWith('/')) return { problem: `Unexpected "${value.trim()}"; ${expected}` };
  return { ...(file ? { file } : {}), ref: { method: first.toUpperCase(), path: second } };
}

/** Reads an `openapi-schema:` or `asyncapi:` value: `name` or `file name`. */
export function readNamedFrontmatter(value: unknown, example: string): NamedInDocument {
  const expected = `expected "name" or "file name", such as ${example}`;
  if (typeof value !== 'string') return { problem: `Unexpected ${Array.isArray(value) ? 'list' : typeof value}; ${expected}` };
  const parts = words(value);
  if (parts.length === 1) return { name: parts[0] };
  if (parts.length === 2) return { file: parts[0], name: parts[1] };
  return { problem: `Unexpected "${value.trim()}"; ${expected}` };
}
