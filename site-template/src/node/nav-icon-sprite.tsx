/** @jsxRuntime automatic @jsxImportSource preact */
/**
 * Named icons of a sidebar drawn once per page, as SVG symbols, and each entry's icon as a
 * `<use>` of its symbol. A sidebar of 1,000 pages with icons held 590 inline copies of 8 icons:
 * 258 KB of a 388 KB page, written into every page of the site and rendered for each (builder
 * docs/benchmarks.md, "Sandboxes without Vite, sidebars drawn once"). The symbols live inside the
 * sidebar's own `<nav>`, so whatever swaps or copies the sidebar takes its icons along; `hidden`
 * (not an inline style, which the site's content security policy refuses) keeps their container
 * out of the layout.
 */
import { iconName, resolveIcon } from '../components/icon-library.ts';
import type { NavItem } from '../shared/types.ts';

/** The id of icon `name`'s symbol. */
export const navIconId = (name: string) => `nav-icon-sprite-${name}`;

/** Icon names a tree's entries use that resolve to an SVG, memoised per tree (every page of a site shares one). */
const namesOfTree = new WeakMap<NavItem[], string[]>();

function collect(items: NavItem[], into: Set<string>): void {
  for (const item of items) {
    const name = item.icon && iconName(item.icon);
    if (name && resolveIcon(item.icon!)) into.add(name);
    if (item.kind !== 'page') collect(item.items, into);
  }
}

export function spriteNames(items: NavItem[]): string[] {
  let names = namesOfTree.get(items);
  if (!names) {
    const set = new Set<string>();
    collect(items, set);
    names = [...set].sort();
    namesOfTree.set(items, names);
  }
  return names;
}

/** The sidebar's symbols: one per named icon its entries use; nothing when they use none. */
export function NavIconSprite({ items }: { items: NavItem[] }) {
  const names = spriteNames(items);
  if (!names.length) return null;
  return (
    <svg class="nav-icon-sprite" hidden aria-hidden="true">
      {names.map((name) => {
        const svg = resolveIcon(name)!;
        return (
          <symbol
            id={navIconId(name)}
            viewBox={svg.viewBox}
            fill={svg.stroked ? 'none' : 'currentColor'}
            stroke={svg.stroked ? 'currentColor' : undefined}
            stroke-width={svg.stroked ? '2' : undefined}
            stroke-linecap={svg.stroked ? 'round' : undefined}
            stroke-linejoin={svg.stroked ? 'round' : undefined}
            dangerouslySetInnerHTML={{ __html: svg.body }}
          />
        );
      })}
    </svg>
  );
}

/** Each icon string's symbol name, or null: a sidebar asks for the same few icons on every page. */
const symbolNames = new Map<string, string | null>();

/** A sidebar entry's named icon as a use of its symbol; undefined for an image, an emoji or an unknown name. */
export function NavIconUse({ icon }: { icon: string }) {
  let name = symbolNames.get(icon);
  if (name === undefined) {
    const n = iconName(icon);
    name = n && resolveIcon(icon) ? n : null;
    // Bounded: icon strings come from one site's navigation, but a process may build many sites.
    if (symbolNames.size > 10_000) symbolNames.clear();
    symbolNames.set(icon, name);
  }
  if (!name) return undefined;
  return (
    <svg class="icon nav-icon" data-icon={name} width="16" height="16" aria-hidden="true">
      <use href={`#${navIconId(name)}`} />
    </svg>
  );
}
