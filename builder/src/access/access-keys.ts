/**
 * The reader-access keys of a page's frontmatter and of a navigation group in `docs.json`,
 * named as Mintlify names them: `groups` (the reader groups that may read it) and `public`
 * (readable without signing in). A page's own keys win over its navigation group's; a nested
 * group's over its parent's. Both at once are refused: a page is either public or for groups.
 */
import { z } from 'zod';

/** What one page or navigation group says about who may read it. */
export interface AccessKeys {
  /** Reader groups that may read it; absent: every signed-in reader (or everyone, see `public`). */
  groups?: string[];
  /** Readable without signing in. */
  public?: boolean;
}

/** A reader group's name: what the identity provider's groups claim carries. */
// eslint-disable-next-line no-control-regex -- control characters are what is refused
export const GROUP_NAME = /^[^\u0000-\u001f\u007f]{1,100}$/;

export const groupsKey = z
  .array(z.string({ error: 'expected a group name of 1 to 100 characters' }).regex(GROUP_NAME, { error: 'expected a group name of 1 to 100 characters' }), { error: 'expected a list of group names' })
  .min(1, { error: 'expected at least one group name' })
  .max(50, { error: 'expected at most 50 group names' })
  .describe('Reader groups that may read these pages (reader authentication); a reader needs one of them');

export const publicKey = z.boolean({ error: 'expected true or false' })
  .describe('Readable without signing in when the site has reader authentication');

/**
 * Checks the access keys of an object (frontmatter data or a navigation group); returns them, or
 * the message of the first problem.
 */
export function checkAccessKeys(data: Record<string, unknown>): { keys: AccessKeys } | { problem: string } {
  const keys: AccessKeys = {};
  if (data.groups !== undefined && data.groups !== null) {
    const parsed = groupsKey.safeParse(data.groups);
    if (!parsed.success) return { problem: `Unexpected \`groups\`; ${parsed.error.issues[0].message}` };
    keys.groups = [...new Set(parsed.data)].sort();
  }
  if (data.public !== undefined && data.public !== null) {
    const parsed = publicKey.safeParse(data.public);
    if (!parsed.success) return { problem: `Unexpected \`public\`; ${parsed.error.issues[0].message}` };
    keys.public = parsed.data;
  }
  if (keys.public === true && keys.groups) return { problem: 'Unexpected `public: true` together with `groups`; a page is either public or for groups' };
  return { keys };
}

/** The keys that apply: `own` where it says anything, else `inherited`. */
export function combineAccess(inherited: AccessKeys, own: AccessKeys): AccessKeys {
  if (own.groups || own.public === true) return own;
  // `public: false` only takes back an inherited `public: true`.
  if (own.public === false) return inherited.groups ? { groups: inherited.groups } : {};
  return inherited;
}
