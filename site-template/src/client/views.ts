/**
 * Mintlify's multi-view: a page's `<View title>` sections become one selector at the top of the
 * page's content; only the chosen view shows (and only its headings in the table of contents).
 * The choice is remembered, so the next page with the same view opens on it.
 */

/** Where the chosen view's title is kept. */
export const VIEW_KEY = 'folio:view';

function remembered(): string | null {
  try {
    return localStorage.getItem(VIEW_KEY);
  } catch {
    return null;
  }
}

function remember(title: string): void {
  try {
    localStorage.setItem(VIEW_KEY, title);
  } catch {
    // Storage refused (private mode): the choice lasts for this page.
  }
}

/** Shows the views titled `title`, hides the others, and keeps the TOC to visible headings. */
function show(views: HTMLElement[], title: string): void {
  for (const view of views) view.hidden = view.dataset.view !== title;
  for (const link of document.querySelectorAll<HTMLAnchorElement>('.toc a[href^="#"]')) {
    const target = document.getElementById(decodeURIComponent(link.hash.slice(1)));
    const item = link.closest('li') ?? link;
    (item as HTMLElement).hidden = !!target && !!target.closest('section.view[hidden]');
  }
}

/** Adds the selector once per page (a page swapped in place gets its own). */
export function initViews(): void {
  const views = [...document.querySelectorAll<HTMLElement>('section.view[data-view]')];
  const first = views[0];
  if (!first || first.parentElement?.querySelector(':scope > .view-select')) return;
  const titles = [...new Set(views.map((v) => v.dataset.view!))];
  if (titles.length < 2) return;
  const label = document.createElement('label');
  label.className = 'view-select';
  const text = document.createElement('span');
  text.textContent = 'View';
  const select = document.createElement('select');
  for (const title of titles) select.append(new Option(title, title));
  const saved = remembered();
  select.value = saved && titles.includes(saved) ? saved : titles[0];
  label.append(text, select);
  first.before(label);
  document.documentElement.setAttribute('data-views', '');
  select.addEventListener('change', () => {
    remember(select.value);
    show(views, select.value);
  });
  show(views, select.value);
}
