/**
 * Completion data from a JSON Schema (pure code: the editor hands it `docs.schema.json` and
 * the path of keys at the cursor). `jsonPathAt` reads an incomplete JSON text up to the cursor
 * and says whether a key or a value is being typed and under which path; `keysAt` and
 * `valuesAt` walk the schema along that path, following `$ref` (local `#/…` pointers) and every
 * branch of `anyOf`, `oneOf` and `allOf`.
 */

/** A JSON Schema node, as far as completion reads it. */
export interface Schema {
  $ref?: string; type?: string | string[]; description?: string; default?: unknown;
  properties?: Record<string, Schema>; additionalProperties?: boolean | Schema;
  items?: Schema | Schema[]; prefixItems?: Schema[];
  anyOf?: Schema[]; oneOf?: Schema[]; allOf?: Schema[];
  enum?: unknown[]; const?: unknown; required?: string[];
  [key: string]: unknown;
}

/** The place of the cursor: a key of the object at `path`, or the value at `path`. */
export interface JsonPlace {
  kind: 'key' | 'value';
  path: (string | number)[];
  /** Offset where the word being typed starts (after an opening quote when in a string). */
  from: number;
  /** True when the cursor is inside a string (a quote is open). */
  inString: boolean;
}

/**
 * Where `pos` is in `text` (JSON, probably incomplete): scans from the start keeping a stack of
 * objects (with their current key) and arrays (with their current index). Null in a comment-
 * free place that takes neither a key nor a value (after a complete value, before a comma).
 */
export function jsonPathAt(text: string, pos: number): JsonPlace | null {
  type Frame = { type: 'object'; key: string | null; expectKey: boolean } | { type: 'array'; index: number };
  const stack: Frame[] = [];
  let valueDone = false;
  for (let i = 0; i < pos; i++) {
    const c = text[i];
    if (c === '"') {
      let j = i + 1;
      let s = '';
      for (; j < pos && text[j] !== '"'; j++) {
        if (text[j] === '\\') { s += text[j + 1] ?? ''; j++; } else s += text[j];
      }
      const top = stack[stack.length - 1];
      if (j >= pos) {
        const path = containerPath(stack);
        if (top?.type === 'object' && top.expectKey) return { kind: 'key', path, from: i + 1, inString: true };
        if (top?.type === 'object' && top.key !== null) return { kind: 'value', path: [...path, top.key], from: i + 1, inString: true };
        if (top?.type === 'array') return { kind: 'value', path: [...path, top.index], from: i + 1, inString: true };
        return null;
      }
      if (top?.type === 'object' && top.expectKey) top.key = s;
      else valueDone = true;
      i = j;
    } else if (c === '{') {
      stack.push({ type: 'object', key: null, expectKey: true });
      valueDone = false;
    } else if (c === '[') {
      stack.push({ type: 'array', index: 0 });
      valueDone = false;
    } else if (c === '}' || c === ']') {
      stack.pop();
      valueDone = true;
    } else if (c === ':') {
      const top = stack[stack.length - 1];
      if (top?.type === 'object') top.expectKey = false;
      valueDone = false;
    } else if (c === ',') {
      const top = stack[stack.length - 1];
      if (top?.type === 'object') { top.expectKey = true; top.key = null; } else if (top?.type === 'array') top.index++;
      valueDone = false;
    } else if (/[\w.+-]/.test(c)) {
      // A bare word (number, true, false, null) being typed or finished.
      let j = i;
      while (j < pos && /[\w.+-]/.test(text[j])) j++;
      if (j >= pos) {
        const top = stack[stack.length - 1];
        const path = containerPath(stack);
        if (top?.type === 'object' && !top.expectKey && top.key !== null) return { kind: 'value', path: [...path, top.key], from: i, inString: false };
        if (top?.type === 'array') return { kind: 'value', path: [...path, top.index], from: i, inString: false };
        if (top?.type === 'object' && top.expectKey) return { kind: 'key', path, from: i, inString: false };
        return null;
      }
      valueDone = true;
      i = j - 1;
    }
  }
  const top = stack[stack.length - 1];
  if (!top || valueDone) return null;
  const path = containerPath(stack);
  if (top.type === 'object') {
    if (top.expectKey) return { kind: 'key', path, from: pos, inString: false };
    return top.key === null ? null : { kind: 'value', path: [...path, top.key], from: pos, inString: false };
  }
  return { kind: 'value', path: [...path, top.index], from: pos, inString: false };
}

/** The path of the innermost container: each outer frame's current key or index. */
function containerPath(stack: ({ type: 'object'; key: string | null } | { type: 'array'; index: number })[]): (string | number)[] {
  return stack.slice(0, -1).map((f) => (f.type === 'object' ? f.key ?? '' : f.index));
}

/** The schema a local `$ref` points at (`#/$defs/x`), or undefined. */
function deref(root: Schema, ref: string): Schema | undefined {
  if (!ref.startsWith('#')) return undefined;
  let node: unknown = root;
  for (const part of ref.slice(1).split('/').filter(Boolean)) {
    node = (node as Record<string, unknown> | undefined)?.[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return node as Schema | undefined;
}

/** Every alternative a schema stands for: refs followed, `anyOf`/`oneOf`/`allOf` flattened. */
export function alternatives(root: Schema, schema: Schema | undefined, seen = new Set<Schema>()): Schema[] {
  if (!schema || typeof schema !== 'object' || seen.has(schema)) return [];
  seen.add(schema);
  const out: Schema[] = [];
  if (schema.$ref) out.push(...alternatives(root, deref(root, schema.$ref), seen));
  for (const list of [schema.anyOf, schema.oneOf, schema.allOf]) for (const s of list ?? []) out.push(...alternatives(root, s, seen));
  const own = { ...schema };
  delete own.$ref; delete own.anyOf; delete own.oneOf; delete own.allOf;
  if (Object.keys(own).some((k) => k !== 'description' && k !== 'title')) out.push(schema);
  return out;
}

/** The schemas that may hold the value at `path`. */
export function schemasAt(root: Schema, path: readonly (string | number)[]): Schema[] {
  let current = alternatives(root, root);
  for (const segment of path) {
    const next: Schema[] = [];
    for (const s of current) {
      if (typeof segment === 'number') {
        if (Array.isArray(s.prefixItems) && s.prefixItems[segment]) next.push(...alternatives(root, s.prefixItems[segment]));
        else if (Array.isArray(s.items)) next.push(...alternatives(root, s.items[segment]));
        else if (s.items) next.push(...alternatives(root, s.items));
      } else if (s.properties && Object.hasOwn(s.properties, segment)) {
        next.push(...alternatives(root, s.properties[segment]));
      } else if (s.additionalProperties && typeof s.additionalProperties === 'object') {
        next.push(...alternatives(root, s.additionalProperties));
      }
    }
    current = next;
  }
  return current;
}

/** A key that may be written in the object at a path. */
export interface KeyOption { key: string; description?: string; required: boolean; type?: string }

/** The keys the object at `path` may have (the union over its alternatives), in schema order. */
export function keysAt(root: Schema, path: readonly (string | number)[]): KeyOption[] {
  const out = new Map<string, KeyOption>();
  for (const s of schemasAt(root, path)) {
    for (const [key, prop] of Object.entries(s.properties ?? {})) {
      if (out.has(key)) continue;
      const alts = alternatives(root, prop);
      const description = prop.description ?? alts.find((a) => a.description)?.description;
      const types = [...new Set(alts.flatMap((a) => (a.type ? [a.type].flat() : a.enum || a.const !== undefined ? ['string'] : [])))];
      out.set(key, { key, description, required: !!s.required?.includes(key), type: types.join(' | ') || undefined });
    }
  }
  return [...out.values()];
}

/** The values the schema names for `path`: `enum` and `const` values, `true`/`false` for booleans, and the default. */
export function valuesAt(root: Schema, path: readonly (string | number)[]): { value: unknown; description?: string }[] {
  const out = new Map<string, { value: unknown; description?: string }>();
  const add = (value: unknown, description?: string) => { const k = JSON.stringify(value); if (!out.has(k)) out.set(k, { value, description }); };
  const schemas = schemasAt(root, path);
  for (const s of schemas) {
    for (const v of s.enum ?? []) add(v, s.description);
    if (s.const !== undefined) add(s.const, s.description);
    if (s.type === 'boolean' || (Array.isArray(s.type) && s.type.includes('boolean'))) { add(true); add(false); }
  }
  for (const s of schemas) if (s.default !== undefined && typeof s.default !== 'object') add(s.default, 'default');
  return [...out.values()];
}
