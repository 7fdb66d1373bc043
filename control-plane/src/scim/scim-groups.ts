/**
 * SCIM Groups. A group's members are SCIM users of the same organization (400 `invalidValue`
 * for an unknown id); `displayName` is unique per organization whatever its case (409
 * `uniqueness`). A group grants nothing by itself: someone with `roles.manage` gives it a role
 * in the dashboard (`PUT /dashboard/api/scim-groups/{id}/role`), and every member holds that
 * role's permissions from their next request. Renaming a group in the identity provider keeps
 * its role (the mapping follows the id, not the name).
 */
import { randomUUID } from 'node:crypto';
import type Koa from 'koa';
import { accessModels, type ScimGroup } from '../db/models/access-models.ts';
import type { Deps } from '../http/route.ts';
import { checkIfMatch, isDuplicate, listResponse, project, projectionOf, scimBase } from './scim-common.ts';
import { scimError } from './scim-errors.ts';
import { applyPatch, type PatchShape } from './scim-patch.ts';

export const GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group';

export const GROUP_SHAPE: PatchShape = {
  names: Object.fromEntries(['displayName', 'externalId', 'members', 'value', 'display', 'type', '$ref', 'id', 'meta', 'schemas'].map((n) => [n.toLowerCase(), n])),
  multiValued: new Set(['members']),
  booleans: new Set(),
};

type Json = Record<string, unknown>;
const invalidValue = (detail: string) => scimError(400, 'invalidValue', detail);

function field(obj: Json, name: string): unknown {
  const key = Object.keys(obj).find((k) => k.toLowerCase() === name.toLowerCase());
  return key === undefined ? undefined : obj[key];
}

interface GroupInput { displayName: string; externalId: string | null; members: string[] }

/** Validates a Group as JSON and checks its members belong to the organization. */
async function parseGroup(deps: Deps, orgId: string, body: unknown): Promise<GroupInput> {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw scimError(400, 'invalidSyntax', 'body: expected a Group object');
  const b = body as Json;
  const schemas = field(b, 'schemas');
  if (schemas !== undefined && (!Array.isArray(schemas) || !schemas.includes(GROUP_SCHEMA))) throw scimError(400, 'invalidSyntax', `schemas: expected to include "${GROUP_SCHEMA}"`);
  const displayName = field(b, 'displayName');
  if (typeof displayName !== 'string' || !displayName.trim()) throw invalidValue('displayName: Required; expected a non-empty string');
  if (displayName.length > 256) throw invalidValue('displayName: must be at most 256 characters');
  const externalId = field(b, 'externalId');
  if (externalId !== undefined && externalId !== null && typeof externalId !== 'string') throw invalidValue('externalId: expected a string');
  const rawMembers = field(b, 'members') ?? [];
  if (!Array.isArray(rawMembers)) throw invalidValue('members: expected a list');
  const members = [...new Set(rawMembers.map((m, i) => {
    const value = m && typeof m === 'object' ? field(m as Json, 'value') : undefined;
    if (typeof value !== 'string' || !value) throw invalidValue(`members[${i}].value: Required; expected a User id`);
    return value;
  }))];
  if (members.length) {
    const known = new Set((await (await accessModels(deps.m)).ScimUser.find({ org_id: orgId, _id: { $in: members } }, { _id: 1 }).lean()).map((u) => u._id));
    const unknown = members.filter((id) => !known.has(id));
    if (unknown.length) throw invalidValue(`members: no User ${unknown.slice(0, 5).join(', ')} in this organization`);
  }
  return { displayName: displayName.trim(), externalId: (externalId as string | null | undefined) ?? null, members };
}

/** The SCIM JSON of a stored group (member display names from their userName). */
async function groupJson(deps: Deps, g: ScimGroup): Promise<Json> {
  const base = scimBase(deps);
  const users = new Map((await (await accessModels(deps.m)).ScimUser.find({ org_id: g.org_id, _id: { $in: g.members } }, { user_name: 1 }).lean()).map((u) => [u._id, u.user_name]));
  return {
    schemas: [GROUP_SCHEMA], id: g._id, ...(g.external_id ? { externalId: g.external_id } : {}), displayName: g.display_name,
    members: g.members.map((id) => ({ value: id, display: users.get(id) ?? '', $ref: `${base}/Users/${id}`, type: 'User' })),
    meta: { resourceType: 'Group', created: g.created_at.toISOString(), lastModified: g.updated_at.toISOString(), location: `${base}/Groups/${g._id}`, version: `W/"${g.version}"` },
  };
}

async function loadGroup(deps: Deps, orgId: string, id: string): Promise<ScimGroup> {
  const g = await (await accessModels(deps.m)).ScimGroup.findOne({ _id: id, org_id: orgId }).lean();
  if (!g) throw scimError(404, undefined, `Group ${id} not found`);
  return g as ScimGroup;
}

const nameTaken = (name: string) => scimError(409, 'uniqueness', `displayName: ${JSON.stringify(name)} is already a group of this organization`);

export async function listGroups(deps: Deps, orgId: string, query: Record<string, unknown>): Promise<Json> {
  const groups = await (await accessModels(deps.m)).ScimGroup.find({ org_id: orgId }).sort({ created_at: 1, _id: 1 }).lean() as ScimGroup[];
  return listResponse(await Promise.all(groups.map((g) => groupJson(deps, g))), query);
}

export async function getGroup(deps: Deps, orgId: string, id: string, query: Record<string, unknown>): Promise<{ body: Json; version: number }> {
  const g = await loadGroup(deps, orgId, id);
  return { body: project(await groupJson(deps, g), projectionOf(query)), version: g.version };
}

export async function createGroup(deps: Deps, orgId: string, body: unknown): Promise<{ body: Json; version: number; location: string }> {
  const input = await parseGroup(deps, orgId, body);
  const now = deps.now();
  try {
    const created = await (await accessModels(deps.m)).ScimGroup.create({
      _id: randomUUID(), org_id: orgId, display_name: input.displayName, display_name_lower: input.displayName.toLowerCase(), external_id: input.externalId,
      members: input.members, role: null, version: 1, created_at: now, updated_at: now,
    });
    const json = await groupJson(deps, created.toObject() as ScimGroup);
    return { body: json, version: 1, location: (json.meta as Json).location as string };
  } catch (err) {
    if (isDuplicate(err)) throw nameTaken(input.displayName);
    throw err;
  }
}

async function writeGroup(deps: Deps, current: ScimGroup, input: GroupInput): Promise<ScimGroup> {
  try {
    const updated = await (await accessModels(deps.m)).ScimGroup.findOneAndUpdate({ _id: current._id, version: current.version }, {
      $set: { display_name: input.displayName, display_name_lower: input.displayName.toLowerCase(), external_id: input.externalId, members: input.members, updated_at: deps.now() },
      $inc: { version: 1 },
    }, { returnDocument: 'after' }).lean();
    if (!updated) throw scimError(412, undefined, 'The group changed while this request was applied; read it again');
    return updated as ScimGroup;
  } catch (err) {
    if (isDuplicate(err)) throw nameTaken(input.displayName);
    throw err;
  }
}

function assertSameId(json: Json, id: string): void {
  const given = field(json, 'id');
  if (given !== undefined && given !== id) throw scimError(400, 'mutability', `id: is read-only; expected ${JSON.stringify(id)}`);
}

export async function replaceGroup(ctx: Koa.Context, deps: Deps, orgId: string, id: string, body: unknown): Promise<{ body: Json; version: number }> {
  const current = await loadGroup(deps, orgId, id);
  checkIfMatch(ctx, current.version);
  if (body && typeof body === 'object') assertSameId(body as Json, id);
  const updated = await writeGroup(deps, current, await parseGroup(deps, orgId, body));
  return { body: await groupJson(deps, updated), version: updated.version };
}

export async function patchGroup(ctx: Koa.Context, deps: Deps, orgId: string, id: string, body: unknown): Promise<{ body: Json; version: number }> {
  const current = await loadGroup(deps, orgId, id);
  checkIfMatch(ctx, current.version);
  const after = applyPatch(await groupJson(deps, current), body, GROUP_SHAPE);
  assertSameId(after, id);
  const updated = await writeGroup(deps, current, await parseGroup(deps, orgId, after));
  return { body: await groupJson(deps, updated), version: updated.version };
}

export async function deleteGroup(ctx: Koa.Context, deps: Deps, orgId: string, id: string): Promise<void> {
  const current = await loadGroup(deps, orgId, id);
  checkIfMatch(ctx, current.version);
  await (await accessModels(deps.m)).ScimGroup.deleteOne({ _id: id });
}
