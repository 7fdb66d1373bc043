/**
 * SCIM Users: each is one member of the organization's dashboard.
 *
 * - Create finds the dashboard account by email (the primary email, else the first, else an
 *   email-shaped userName) or makes one without a password (sign-in through single sign-on or
 *   an invitation), and gives it a seat with the default role (roles/roles.ts) within
 *   `max_dashboard_members` (402 `plan_limit_reached`). Someone already a member is linked, and
 *   keeps their role and seat.
 * - `userName` is unique per organization whatever its case: a unique index settles concurrent
 *   creates (one user, 409 `uniqueness` for the rest).
 * - `active: false` suspends the member: their sessions end at once and new ones are refused.
 * - Delete removes the membership and the SCIM user; the account goes too unless it belongs to
 *   another organization.
 * - The last owner can be neither suspended nor deleted (409 `last_owner`).
 *
 * Stored: userName, externalId, name, displayName, emails, active. Other attributes in requests
 * (title, phoneNumbers, the enterprise extension) are accepted and not stored. The account's
 * email and name are set when it is made and never changed by SCIM (it may sign in elsewhere).
 */
import { randomUUID } from 'node:crypto';
import type Koa from 'koa';
import { accessModels, type ScimUser } from '../db/models/access-models.ts';
import { deleteUserSessions } from '../dashboard/session-store.ts';
import { checkLifetimeCap, withOrgLock } from '../entitlements/resolver.ts';
import { AppError } from '../errors.ts';
import type { Deps } from '../http/route.ts';
import { DEFAULT_MEMBER_ROLE } from '../roles/roles.ts';
import { checkIfMatch, isDuplicate, listResponse, projectionOf, project, resourceHeaders, scimBase } from './scim-common.ts';
import { scimError } from './scim-errors.ts';
import { applyPatch, type PatchShape } from './scim-patch.ts';

export const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
const NAME_PARTS = ['formatted', 'familyName', 'givenName', 'middleName', 'honorificPrefix', 'honorificSuffix'] as const;
const EMAIL_PARTS = ['value', 'type', 'primary', 'display'] as const;

export const USER_SHAPE: PatchShape = {
  names: Object.fromEntries(['userName', 'externalId', 'displayName', 'name', 'emails', 'active', 'groups', 'id', 'meta', 'schemas', ...NAME_PARTS, ...EMAIL_PARTS].map((n) => [n.toLowerCase(), n])),
  multiValued: new Set(['emails', 'groups']),
  booleans: new Set(['active', 'emails.primary']),
};

type Json = Record<string, unknown>;
const invalidValue = (detail: string) => scimError(400, 'invalidValue', detail);

/** What a request says about a user, validated. */
interface UserInput {
  userName: string;
  externalId: string | null;
  displayName: string | null;
  name: Record<string, string> | null;
  emails: Array<Record<string, unknown>>;
  active: boolean;
}

function bool(value: unknown, field: string): boolean {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string' && /^(true|false)$/i.test(value)) return value.toLowerCase() === 'true';
  throw invalidValue(`${field}: Unexpected ${JSON.stringify(value)}; expected true or false`);
}

function optString(value: unknown, field: string): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') throw invalidValue(`${field}: expected a string`);
  return value;
}

function field(obj: Json, name: string): unknown {
  const key = Object.keys(obj).find((k) => k.toLowerCase() === name.toLowerCase());
  return key === undefined ? undefined : obj[key];
}

/** Validates a User as JSON (a POST or PUT body, or a patched resource). */
export function parseUser(body: unknown): UserInput {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw scimError(400, 'invalidSyntax', 'body: expected a User object');
  const b = body as Json;
  const schemas = field(b, 'schemas');
  if (schemas !== undefined && (!Array.isArray(schemas) || !schemas.includes(USER_SCHEMA))) throw scimError(400, 'invalidSyntax', `schemas: expected to include "${USER_SCHEMA}"`);
  const userName = field(b, 'userName');
  if (typeof userName !== 'string' || !userName.trim()) throw invalidValue('userName: Required; expected a non-empty string');
  if (userName.length > 256) throw invalidValue('userName: must be at most 256 characters');
  const rawName = field(b, 'name');
  let name: Record<string, string> | null = null;
  if (rawName !== undefined && rawName !== null) {
    if (typeof rawName !== 'object' || Array.isArray(rawName)) throw invalidValue('name: expected an object');
    name = {};
    for (const part of NAME_PARTS) {
      const v = optString(field(rawName as Json, part), `name.${part}`);
      if (v !== null) name[part] = v;
    }
  }
  const rawEmails = field(b, 'emails') ?? [];
  if (!Array.isArray(rawEmails)) throw invalidValue('emails: expected a list');
  const emails = rawEmails.map((e, i) => {
    if (e === null || typeof e !== 'object' || Array.isArray(e)) throw invalidValue(`emails[${i}]: expected an object`);
    const value = optString(field(e as Json, 'value'), `emails[${i}].value`);
    if (!value) throw invalidValue(`emails[${i}].value: Required`);
    const out: Record<string, unknown> = { value };
    const type = optString(field(e as Json, 'type'), `emails[${i}].type`);
    if (type !== null) out.type = type;
    const primary = field(e as Json, 'primary');
    if (primary !== undefined && primary !== null) out.primary = bool(primary, `emails[${i}].primary`);
    const display = optString(field(e as Json, 'display'), `emails[${i}].display`);
    if (display !== null) out.display = display;
    return out;
  });
  const active = field(b, 'active');
  return {
    userName: userName.trim(), externalId: optString(field(b, 'externalId'), 'externalId'), displayName: optString(field(b, 'displayName'), 'displayName'),
    name, emails, active: active === undefined || active === null ? true : bool(active, 'active'),
  };
}

/** The dashboard account's email for a user: primary email, first email, or an email-shaped userName. */
function accountEmail(u: UserInput): string {
  const candidate = (u.emails.find((e) => e.primary === true) ?? u.emails[0])?.value as string | undefined ?? (u.userName.includes('@') ? u.userName : undefined);
  const email = candidate?.trim().toLowerCase();
  if (!email || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email) || email.length > 254) {
    throw invalidValue('emails: a dashboard account needs an email address; send emails[].value or an email-shaped userName');
  }
  return email;
}

/** The SCIM JSON of a stored user. */
export function userResource(u: ScimUser, groups: Array<{ id: string; display: string }>, base: string): Json {
  return {
    schemas: [USER_SCHEMA], id: u._id, ...(u.external_id ? { externalId: u.external_id } : {}), userName: u.user_name,
    ...(u.name ? { name: u.name } : {}), ...(u.display_name ? { displayName: u.display_name } : {}),
    emails: u.emails ?? [], active: u.active,
    groups: groups.map((g) => ({ value: g.id, display: g.display, $ref: `${base}/Groups/${g.id}`, type: 'direct' })),
    meta: { resourceType: 'User', created: u.created_at.toISOString(), lastModified: u.updated_at.toISOString(), location: `${base}/Users/${u._id}`, version: `W/"${u.version}"` },
  };
}

async function groupsOf(deps: Deps, orgId: string, scimIds: string[]): Promise<Map<string, Array<{ id: string; display: string }>>> {
  const groups = await (await accessModels(deps.m)).ScimGroup.find({ org_id: orgId, members: { $in: scimIds } }, { display_name: 1, members: 1 }).sort({ display_name_lower: 1 }).lean();
  const out = new Map<string, Array<{ id: string; display: string }>>();
  for (const g of groups) for (const id of g.members) if (scimIds.includes(id)) out.set(id, [...(out.get(id) ?? []), { id: g._id, display: g.display_name }]);
  return out;
}

async function loadUser(deps: Deps, orgId: string, id: string): Promise<ScimUser> {
  const u = await (await accessModels(deps.m)).ScimUser.findOne({ _id: id, org_id: orgId }).lean();
  if (!u) throw scimError(404, undefined, `User ${id} not found`);
  return u as ScimUser;
}

/** One user as SCIM JSON, with its groups. */
export async function userJson(deps: Deps, u: ScimUser): Promise<Json> {
  return userResource(u, (await groupsOf(deps, u.org_id, [u._id])).get(u._id) ?? [], scimBase(deps));
}

const userNameTaken = (userName: string) => scimError(409, 'uniqueness', `userName: ${JSON.stringify(userName)} is already provisioned in this organization`);

async function assertNotLastOwner(deps: Deps, orgId: string, userId: string): Promise<void> {
  const owners = await deps.m.Membership.find({ org_id: orgId, role: 'owner', active: { $ne: false } }, { user_id: 1 }).lean();
  if (owners.length === 1 && owners[0].user_id === userId) {
    throw new AppError(409, 'last_owner', 'An organization needs an owner; make another member owner in the dashboard first');
  }
}

/** Suspends or restores the membership; suspension ends the member's sessions in this organization. */
async function setActive(deps: Deps, orgId: string, userId: string, active: boolean): Promise<void> {
  if (!active) await assertNotLastOwner(deps, orgId, userId);
  await deps.m.Membership.updateOne({ org_id: orgId, user_id: userId }, { $set: { active } });
  if (!active) await deleteUserSessions(deps.m, userId, orgId);
}

export async function listUsers(deps: Deps, orgId: string, query: Record<string, unknown>): Promise<Json> {
  const users = await (await accessModels(deps.m)).ScimUser.find({ org_id: orgId }).sort({ created_at: 1, _id: 1 }).lean() as ScimUser[];
  const groups = await groupsOf(deps, orgId, users.map((u) => u._id));
  const base = scimBase(deps);
  return listResponse(users.map((u) => userResource(u, groups.get(u._id) ?? [], base)), query);
}

export async function getUser(deps: Deps, orgId: string, id: string, query: Record<string, unknown>): Promise<{ body: Json; version: number }> {
  const u = await loadUser(deps, orgId, id);
  return { body: project(await userJson(deps, u), projectionOf(query)), version: u.version };
}

export async function createUser(deps: Deps, orgId: string, body: unknown): Promise<{ body: Json; version: number; location: string }> {
  const input = parseUser(body);
  const email = accountEmail(input);
  const am = await accessModels(deps.m);
  if (await am.ScimUser.exists({ org_id: orgId, user_name_lower: input.userName.toLowerCase() })) throw userNameTaken(input.userName);
  const now = deps.now();
  let user = await deps.m.User.findOne({ email }).lean();
  const member = user ? await deps.m.Membership.findOne({ org_id: orgId, user_id: user._id }).lean() : null;
  // A new member takes a seat under the organization's seat lock: of concurrent creations for the
  // last seat, one gets it and the others the plan error.
  const provision = async (): Promise<{ body: Json; version: number; location: string }> => {
    if (!member) await checkLifetimeCap(deps.m, orgId, 'max_dashboard_members', now, deps.env.UPGRADE_URL);
    let madeUser = false;
    if (!user) {
      const displayName = input.displayName ?? input.name?.formatted ?? [input.name?.givenName, input.name?.familyName].filter(Boolean).join(' ');
      try {
        user = (await deps.m.User.create({ email, name: displayName.slice(0, 80), password_hash: null, created_at: now })).toObject();
        madeUser = true;
      } catch (err) {
        if (!isDuplicate(err)) throw err;
        user = await deps.m.User.findOne({ email }).lean();
        if (!user) throw err;
      }
    }
    const id = randomUUID();
    try {
      await am.ScimUser.create({
        _id: id, org_id: orgId, user_id: user._id, user_name: input.userName, user_name_lower: input.userName.toLowerCase(), external_id: input.externalId,
        display_name: input.displayName, name: input.name, emails: input.emails, active: input.active, version: 1, created_at: now, updated_at: now,
      });
    } catch (err) {
      if (madeUser) await deps.m.User.deleteOne({ _id: user._id });
      if (!isDuplicate(err)) throw err;
      const byName = await am.ScimUser.exists({ org_id: orgId, user_name_lower: input.userName.toLowerCase() });
      throw byName ? userNameTaken(input.userName) : scimError(409, 'uniqueness', `emails: ${email} is already provisioned in this organization under another userName`);
    }
    if (!member) {
      try {
        await deps.m.Membership.create({ org_id: orgId, user_id: user._id, role: DEFAULT_MEMBER_ROLE, active: input.active, created_at: now });
      } catch (err) {
        if (!isDuplicate(err)) throw err;
      }
    } else {
      await setActive(deps, orgId, user._id, input.active);
    }
    if (!input.active) await deleteUserSessions(deps.m, user._id, orgId);
    const created = await loadUser(deps, orgId, id);
    const json = await userJson(deps, created);
    return { body: json, version: created.version, location: (json.meta as Json).location as string };
  };
  return member ? provision() : withOrgLock(deps.m, orgId, 'seat', provision);
}

/** Stores a validated user over an existing one (PUT, PATCH). */
async function writeUser(deps: Deps, current: ScimUser, input: UserInput): Promise<ScimUser> {
  const am = await accessModels(deps.m);
  if (input.active !== current.active) await setActive(deps, current.org_id, current.user_id, input.active);
  try {
    const updated = await am.ScimUser.findOneAndUpdate({ _id: current._id, version: current.version }, {
      $set: {
        user_name: input.userName, user_name_lower: input.userName.toLowerCase(), external_id: input.externalId, display_name: input.displayName,
        name: input.name, emails: input.emails, active: input.active, updated_at: deps.now(),
      },
      $inc: { version: 1 },
    }, { returnDocument: 'after' }).lean();
    if (!updated) throw scimError(412, undefined, 'The user changed while this request was applied; read it again');
    return updated as ScimUser;
  } catch (err) {
    if (isDuplicate(err)) throw userNameTaken(input.userName);
    throw err;
  }
}

function assertSameId(json: Json, id: string): void {
  const given = field(json, 'id');
  if (given !== undefined && given !== id) throw scimError(400, 'mutability', `id: is read-only; expected ${JSON.stringify(id)}`);
}

export async function replaceUser(ctx: Koa.Context, deps: Deps, orgId: string, id: string, body: unknown): Promise<{ body: Json; version: number }> {
  const current = await loadUser(deps, orgId, id);
  checkIfMatch(ctx, current.version);
  if (body && typeof body === 'object') assertSameId(body as Json, id);
  const updated = await writeUser(deps, current, parseUser(body));
  return { body: await userJson(deps, updated), version: updated.version };
}

export async function patchUser(ctx: Koa.Context, deps: Deps, orgId: string, id: string, body: unknown): Promise<{ body: Json; version: number }> {
  const current = await loadUser(deps, orgId, id);
  checkIfMatch(ctx, current.version);
  const before = await userJson(deps, current);
  const after = applyPatch(before, body, USER_SHAPE);
  assertSameId(after, id);
  const updated = await writeUser(deps, current, parseUser(after));
  return { body: await userJson(deps, updated), version: updated.version };
}

export async function deleteUser(ctx: Koa.Context, deps: Deps, orgId: string, id: string): Promise<void> {
  const current = await loadUser(deps, orgId, id);
  checkIfMatch(ctx, current.version);
  await assertNotLastOwner(deps, orgId, current.user_id);
  const am = await accessModels(deps.m);
  await am.ScimGroup.updateMany({ org_id: orgId, members: id }, { $pull: { members: id }, $inc: { version: 1 }, $set: { updated_at: deps.now() } });
  await am.ScimUser.deleteOne({ _id: id });
  await deps.m.Membership.deleteOne({ org_id: orgId, user_id: current.user_id });
  await deleteUserSessions(deps.m, current.user_id, orgId);
  // The account stays while it has a seat elsewhere.
  if (!await deps.m.Membership.exists({ user_id: current.user_id })) await deps.m.User.deleteOne({ _id: current.user_id });
}

export { resourceHeaders };
