import type { NavItem } from '@folio/site-template/shared/types.ts';

/**
 * `make` computed once per sidebar object. A kept builder gets the same (frozen) sidebar back
 * while no page moves in it (remembered-nav.ts), so what is derived from a sidebar (its
 * previous/next links, reading-order ranks, hash) is kept with it instead of remade per edit.
 */
export function perSidebar<T>(make: (nav: readonly NavItem[]) => T): (nav: readonly NavItem[]) => T {
  const made = new WeakMap<readonly NavItem[], T>();
  return (nav) => {
    let value = made.get(nav);
    if (value === undefined) made.set(nav, (value = make(nav)));
    return value;
  };
}
