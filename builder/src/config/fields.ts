/**
 * Field rules shared by the sections of the configuration schema. Each rule carries the
 * "expected …" text its error message ends with, so every rejection names what would be valid.
 */
import { z } from 'zod';
import { expected } from './error-map.ts';

/** Canonical theme names (spec 2.11). */
export const themeNames = ['cedar', 'obsidian', 'birch', 'oak', 'cypress', 'ember', 'larch', 'sage', 'slate', 'terminal'] as const;

/** Deprecated theme names and the theme each still resolves to. */
export const themeAliases = { maple: 'larch', classic: 'cedar', modern: 'ember', minimal: 'sage' } as const;

/** Header controls that `navbar.controls` places and orders. */
export const controlNames = ['appearance', 'language', 'version', 'product', 'assistant'] as const;

/** Platform slugs `footer.social` knows an icon for; other slugs are accepted too. */
export const socialSlugs = [
  'github', 'x', 'linkedin', 'discord', 'youtube', 'facebook', 'website', 'slack',
  'instagram', 'hackernews', 'medium', 'telegram', 'bluesky', 'threads', 'reddit', 'podcast',
] as const;

/** A non-empty string. */
export const text = () => z.string().min(1);

/** `#rgb` → `#rrggbb` (Mintlify accepts both forms; the theme computes shades from six digits). */
export function expandHex(value: string): string {
  return /^#[0-9a-fA-F]{3}$/.test(value) ? `#${[...value.slice(1)].map((c) => c + c).join('')}` : value;
}

/** `#rrggbb`, or `#rgb` read as `#rrggbb`. */
export const hexColor = () =>
  z.string().regex(/^#([0-9a-fA-F]{6}|[0-9a-fA-F]{3})$/, { error: expected('# followed by six (or three) hex digits') }).transform(expandHex);

/** `#rrggbb` (or `#rgb`) or a (repeating-)linear/radial/conic CSS gradient. */
export const background = () =>
  z.string().regex(/^(#[0-9a-fA-F]{6}|#[0-9a-fA-F]{3}|(repeating-)?(linear|radial|conic)-gradient\(.+\))$/s, {
    error: expected('# followed by six (or three) hex digits, or a CSS gradient such as linear-gradient(…)'),
  }).transform(expandHex);

/** A root-relative path served from the repository's `public/` folder, or an absolute http(s) URL. */
export const assetRef = () =>
  z.string().regex(/^(\/(?!(.*\/)?\.\.(\/|$))\S*|https?:\/\/\S+)$/, {
    error: expected('a root-relative path such as /images/logo.svg, or an absolute http(s) URL'),
  });

/** A link `{ label, href }`; no other keys (beside `extra`), so a misspelt key is reported rather than ignored. */
export const link = <E extends z.ZodRawShape = Record<never, never>>(extra?: E) => z.strictObject({ label: text(), href: text(), ...(extra ?? ({} as E)) });

/** True when `value` is a folder path inside the repository (relative, no `..` segment). */
export function isSafeRelativePath(value: string): boolean {
  if (/^([/\\]|[a-zA-Z]:)/.test(value)) return false;
  return !value.split(/[/\\]/).includes('..');
}

/**
 * Rejects arrays naming the same value (or the same `field` of an item) twice, at the repeat.
 * Use with {@link always} so a repeat is reported alongside the items' own problems.
 */
export function unique<T>(what: string, field?: keyof T & string) {
  return (items: T[], ctx: z.core.$RefinementCtx<T[]>) => {
    // With `always` this runs on input that already failed as not an array: nothing to compare.
    if (!Array.isArray(items)) return;
    const seen = new Set<unknown>();
    items.forEach((item, index) => {
      const k = field ? (item as Record<string, unknown> | null)?.[field] : item;
      if (k === undefined) return;
      if (seen.has(k)) ctx.addIssue({ code: 'custom', path: field ? [index, field] : [index], input: k, message: expected(what)({ input: k }) });
      seen.add(k);
    });
  };
}

/** Refinement option: run even when items already failed, so every problem is listed at once. */
export const always = { when: () => true };
