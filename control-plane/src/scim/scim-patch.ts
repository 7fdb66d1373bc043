/**
 * SCIM PATCH (RFC 7644 section 3.5.2) applied to a resource as JSON, in the forms identity
 * providers send:
 *
 * - Okta: `{"op":"replace","value":{"active":false}}`, `{"op":"remove","path":"members[value eq \"…\"]"}`,
 *   `{"op":"add","path":"members","value":[{"value":"…"}]}`, `{"op":"replace","value":{"id":"…","displayName":"…"}}`.
 * - Microsoft Entra ID: capitalised ops (`"Replace"`), string booleans (`"False"`),
 *   `emails[type eq "work"].value` (made when missing), `{"op":"Remove","path":"members","value":[{"value":"…"}]}`,
 *   and dotted keys inside a path-less value (`{"name.givenName":"…"}`).
 *
 * The caller turns the patched JSON back into what it stores and refuses changes to read-only
 * attributes (`mutability`).
 */
import { parsePatchPath, matches, type FilterNode, type PatchPath } from './scim-filter.ts';
import { scimError } from './scim-errors.ts';

export const PATCH_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';

/** What the patcher needs to know about a resource type. */
export interface PatchShape {
  /** Canonical spelling of every attribute and sub-attribute, by lower-case name. */
  names: Record<string, string>;
  /** Lower-case names of multi-valued top-level attributes. */
  multiValued: ReadonlySet<string>;
  /** Lower-case dotted names of boolean attributes (`active`, `emails.primary`). */
  booleans: ReadonlySet<string>;
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);
const syntax = (detail: string) => scimError(400, 'invalidSyntax', detail);

function keyOf(obj: Json, lower: string, shape: PatchShape): string {
  return Object.keys(obj).find((k) => k.toLowerCase() === lower) ?? shape.names[lower] ?? lower;
}

/** "True"/"False" (Entra) become booleans where the attribute is boolean. */
function coerce(dotted: string, value: unknown, shape: PatchShape): unknown {
  if (shape.booleans.has(dotted) && typeof value === 'string' && /^(true|false)$/i.test(value)) return value.toLowerCase() === 'true';
  if (Array.isArray(value)) return value.map((v) => coerce(dotted, v, shape));
  if (isObject(value)) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [shape.names[k.toLowerCase()] ?? k, coerce(`${dotted}.${k.toLowerCase()}`, v, shape)]));
  }
  return value;
}

function sameValue(a: unknown, b: unknown): boolean {
  return isObject(a) && isObject(b) && a.value !== undefined && String(a.value) === String(b.value);
}

function merge(target: Json, value: Json, shape: PatchShape): void {
  for (const [k, v] of Object.entries(value)) target[keyOf(target, k.toLowerCase(), shape)] = v;
}

/** A simple `attr eq "x"` filter, whose element can be made when none matches (Entra's emails). */
function seedOf(filter: FilterNode): Json | undefined {
  return filter.type === 'compare' && filter.op === 'eq' && filter.path.length === 1 ? { [filter.path[0]]: filter.value } : undefined;
}

function applyPath(res: Json, op: 'add' | 'replace' | 'remove', path: PatchPath, rawValue: unknown, shape: PatchShape): void {
  const [top, child] = path.attr;
  const topKey = keyOf(res, top, shape);
  const dotted = path.attr.join('.');
  const value = coerce(path.sub ? `${top}.${path.sub}` : dotted, rawValue, shape);

  if (path.filter) {
    const list = Array.isArray(res[topKey]) ? (res[topKey] as unknown[]) : [];
    const hits = list.filter((el) => isObject(el) && matches(el, path.filter!));
    if (op === 'remove') {
      if (path.sub) for (const el of hits) delete (el as Json)[keyOf(el as Json, path.sub, shape)];
      else res[topKey] = list.filter((el) => !hits.includes(el));
      return;
    }
    if (!hits.length) {
      const seed = seedOf(path.filter);
      if (!seed) throw scimError(400, 'noTarget', `path: no ${top} value matches the filter`);
      const el: Json = Object.fromEntries(Object.entries(seed).map(([k, v]) => [shape.names[k] ?? k, v]));
      list.push(el);
      hits.push(el);
      res[topKey] = list;
    }
    for (const el of hits as Json[]) {
      if (path.sub) el[keyOf(el, path.sub, shape)] = value;
      else if (isObject(value)) { if (op === 'replace') for (const k of Object.keys(el)) delete el[k]; merge(el, value, shape); }
      else throw scimError(400, 'invalidValue', `value: expected an object for ${top}[…]`);
    }
    return;
  }

  if (child !== undefined) {
    const parent = res[topKey];
    if (op === 'remove') {
      if (Array.isArray(parent)) for (const el of parent) { if (isObject(el)) delete el[keyOf(el, child, shape)]; }
      else if (isObject(parent)) delete parent[keyOf(parent, child, shape)];
      return;
    }
    if (Array.isArray(parent)) { for (const el of parent) if (isObject(el)) el[keyOf(el, child, shape)] = value; return; }
    const obj = isObject(parent) ? parent : (res[topKey] = {} as Json);
    (obj as Json)[keyOf(obj as Json, child, shape)] = value;
    return;
  }

  const current = res[topKey];
  if (shape.multiValued.has(top)) {
    const incoming = value === null || value === undefined ? [] : Array.isArray(value) ? value : [value];
    const list = Array.isArray(current) ? current : [];
    if (op === 'remove') {
      // Entra removes members by listing them in `value`; without one, the whole attribute goes.
      res[topKey] = incoming.length ? list.filter((el) => !incoming.some((x) => sameValue(el, x))) : [];
      return;
    }
    if (op === 'replace') { res[topKey] = incoming; return; }
    res[topKey] = [...list.filter((el) => !incoming.some((x) => sameValue(el, x))), ...incoming];
    return;
  }
  if (op === 'remove') { delete res[topKey]; return; }
  if (isObject(current) && isObject(value)) merge(current, value, shape);
  else res[topKey] = value;
}

/**
 * Applies a PatchOp request body to a copy of `resource`; answers the patched copy. Throws SCIM
 * errors: `invalidSyntax` (not a PatchOp, unknown op), `invalidPath`, `noTarget`, `invalidValue`.
 */
export function applyPatch(resource: Json, body: unknown, shape: PatchShape): Json {
  if (!isObject(body)) throw syntax('body: expected a PatchOp object');
  const schemas = body.schemas;
  if (Array.isArray(schemas) && !schemas.includes(PATCH_SCHEMA)) throw syntax(`schemas: expected ["${PATCH_SCHEMA}"]`);
  const ops = body.Operations ?? body.operations;
  if (!Array.isArray(ops) || !ops.length) throw syntax('Operations: expected a non-empty list of operations');
  const res = structuredClone(resource);
  for (const [i, raw] of ops.entries()) {
    if (!isObject(raw)) throw syntax(`Operations[${i}]: expected an object`);
    const op = typeof raw.op === 'string' ? raw.op.toLowerCase() : '';
    if (op !== 'add' && op !== 'replace' && op !== 'remove') throw syntax(`Operations[${i}].op: Unexpected ${JSON.stringify(raw.op)}; expected add, replace or remove`);
    const path = raw.path;
    if (path !== undefined && (typeof path !== 'string' || !path.trim())) throw scimError(400, 'invalidPath', `Operations[${i}].path: expected a non-empty string`);
    if (path === undefined) {
      if (op === 'remove') throw scimError(400, 'noTarget', `Operations[${i}]: remove needs a path`);
      if (!isObject(raw.value)) throw syntax(`Operations[${i}].value: expected an object of attributes when there is no path`);
      for (const [k, v] of Object.entries(raw.value)) applyPath(res, op, parsePatchPath(k), v, shape);
      continue;
    }
    if (op !== 'remove' && raw.value === undefined) throw syntax(`Operations[${i}].value: Required for ${op}`);
    applyPath(res, op, parsePatchPath(path), raw.value, shape);
  }
  return res;
}
