/**
 * Icons by name for the `icon` prop of every component and for `<Icon>`: Lucide
 * (`lucide-static`) and Font Awesome Free (`@fortawesome/fontawesome-free`), read from their
 * npm packages while the page renders and inlined as SVG, so a page carries exactly the icons it
 * uses and no icon font or sprite is ever downloaded.
 *
 * Resolution of a name (lower-case letters, digits and dashes; a leading `fa-` is dropped):
 * - `iconType` given (Font Awesome's styles: `solid`, `regular`, `brands`; the Pro-only styles
 *   `light`, `thin`, `duotone`, `sharp-*` fall back to `solid`): Font Awesome in that style,
 *   then the other Font Awesome styles;
 * - otherwise Lucide first (its stroked style matches the template's own icons), then Font
 *   Awesome solid, brands and regular; so Mintlify pages written for either library render.
 * A name found nowhere resolves to undefined; callers render nothing rather than the name.
 *
 * Reading happens here (in the process that renders pages, before any page code runs the file
 * functions are bound), each icon once, and only names matching the pattern ever reach the
 * file system, so a prop cannot name another file.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { ICON_NAMES } from '../shared/icon-names.ts';
import { FA_STYLES, iconKey, iconName, type IconSvg } from './icon-name.ts';

export { iconName, type IconSvg };

const require = createRequire(import.meta.url);
const packageDir = (name: string) => dirname(require.resolve(`${name}/package.json`));
const LUCIDE = join(packageDir('lucide-static'), 'icons');
const FONT_AWESOME = join(packageDir('@fortawesome/fontawesome-free'), 'svgs');
const cache = new Map<string, IconSvg | undefined>();

function read(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

function lucide(name: string): IconSvg | undefined {
  const text = read(join(LUCIDE, `${name}.svg`));
  const body = text && /<svg[^>]*>([\s\S]*)<\/svg>/.exec(text)?.[1];
  return body ? { library: 'lucide', viewBox: '0 0 24 24', body: body.replace(/\s*\n\s*/g, '').replace(/ \/>/g, '/>'), stroked: true } : undefined;
}

function fontAwesome(name: string, style: string): IconSvg | undefined {
  const text = read(join(FONT_AWESOME, style, `${name}.svg`));
  if (!text) return undefined;
  const viewBox = /viewBox="([\d .]+)"/.exec(text)?.[1];
  const body = /<svg[^>]*>(?:<!--[\s\S]*?-->)?([\s\S]*)<\/svg>/.exec(text)?.[1];
  return viewBox && body ? { library: 'fontawesome', viewBox, body: body.replace(/ fill="currentColor"/g, ''), stroked: false } : undefined;
}

/** The icon called `name` (see the module comment for the order), or undefined. */
export function resolveIcon(name: string, iconType?: string): IconSvg | undefined {
  const key = iconKey(name, iconType);
  if (key === undefined) return undefined;
  if (cache.has(key)) return cache.get(key);
  const [type, n] = [key.slice(0, key.indexOf(':')) || undefined, key.slice(key.indexOf(':') + 1)];
  const order = type ? [type, ...FA_STYLES.filter((s) => s !== type)] : FA_STYLES;
  let found = type ? undefined : lucide(n);
  for (const style of order) found ??= fontAwesome(n, style);
  cache.set(key, found);
  return found;
}

/** Every icon name of both libraries (sorted, for suggestions): the one list in `shared/icon-names.ts`. */
export function iconNames(): readonly string[] {
  return ICON_NAMES;
}
