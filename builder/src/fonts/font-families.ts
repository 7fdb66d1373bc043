/**
 * The font families a site gets served from its own origin (docs/mintlify.md, "Fonts"): the ones
 * Mintlify sites use most, each from its `@fontsource/<kebab-name>` package (OFL-1.1). A family
 * outside this list applies only where the reader has it installed.
 */
export const SERVED_FAMILIES = [
  'Inter', 'Geist', 'Roboto', 'Open Sans', 'Lato', 'Poppins', 'Source Sans 3', 'IBM Plex Sans', 'JetBrains Mono', 'Fira Code',
] as const;

/** A family name as docs.json writes it (`"Inter"`, `'Open Sans'`), without quotes or outer spaces. */
export function bareFamily(value: string): string {
  return value.trim().replace(/^(['"])(.*)\1$/, '$2').trim();
}

/** The served family `value` names (case-insensitive), or undefined. */
export function servedFamily(value: string): (typeof SERVED_FAMILIES)[number] | undefined {
  const bare = bareFamily(value).toLowerCase();
  return SERVED_FAMILIES.find((f) => f.toLowerCase() === bare);
}

/** `Source Sans 3` → `source-sans-3`: the package and file name of a served family. */
export function familySlug(family: string): string {
  return family.toLowerCase().replace(/\s+/g, '-');
}

/** A font file docs.json gives by URL (Mintlify's `fonts.source`). */
export interface FontSource {
  family: string;
  url: string;
  weight?: number;
  format?: 'woff' | 'woff2';
}

/** An absolute https URL that can stand in a CSS `url("…")` as it is. */
export const SAFE_FONT_URL = /^https:\/\/[^\s"'()\\<>]+$/;

/** One of Mintlify's font settings: `fonts` itself (`family`), `fonts.heading` or `fonts.body`. */
export interface FontFace {
  family: string;
  weight?: number;
  source?: string;
  format?: 'woff' | 'woff2';
}

/** Mintlify's `fonts` key. */
export type MintlifyFonts = Partial<FontFace> & { heading?: FontFace; body?: FontFace };

/** The settings of `fonts` that name a family, with the key each came from (`fonts.heading`). */
export function fontFaces(fonts: MintlifyFonts): (FontFace & { role: 'family' | 'heading' | 'body'; key: string })[] {
  const top = fonts.family ? [{ ...fonts, family: fonts.family, role: 'family' as const, key: 'fonts' }] : [];
  const parts = (['heading', 'body'] as const).flatMap((role) => (fonts[role] ? [{ ...fonts[role], role, key: `fonts.${role}` }] : []));
  return [...top, ...parts];
}
