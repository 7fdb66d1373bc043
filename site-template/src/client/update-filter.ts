/**
 * Changelog tag filter, as Mintlify offers it: when a page's `<Update>`s carry `tags`, a row of
 * tag toggles appears above the first update; with tags selected, only updates carrying one of
 * them show. Without the script every update shows.
 */
export function initUpdateFilter(): void {
  const updates = [...document.querySelectorAll<HTMLElement>('section.update[data-tags]')];
  const first = document.querySelector<HTMLElement>('section.update');
  if (!updates.length || !first || first.parentElement?.querySelector(':scope > .update-filter')) return;
  const tagsOf = (el: HTMLElement): string[] => {
    try {
      const tags = JSON.parse(el.dataset.tags ?? '[]') as unknown;
      return Array.isArray(tags) ? tags.filter((t): t is string => typeof t === 'string') : [];
    } catch {
      return [];
    }
  };
  const all = [...new Set(updates.flatMap(tagsOf))];
  const chosen = new Set<string>();
  const bar = document.createElement('div');
  bar.className = 'update-filter';
  bar.setAttribute('role', 'group');
  bar.setAttribute('aria-label', 'Filter updates by tag');
  const apply = () => {
    for (const el of document.querySelectorAll<HTMLElement>('section.update')) {
      el.hidden = chosen.size > 0 && !tagsOf(el).some((t) => chosen.has(t));
    }
  };
  for (const tag of all) {
    const button = document.createElement('button');
    button.type = 'button';
    button.textContent = tag;
    button.setAttribute('aria-pressed', 'false');
    button.addEventListener('click', () => {
      if (chosen.has(tag)) chosen.delete(tag);
      else chosen.add(tag);
      button.setAttribute('aria-pressed', String(chosen.has(tag)));
      apply();
    });
    bar.append(button);
  }
  first.before(bar);
}
