import { MODE_KEY } from './mode-key.ts';

/** The appearance toggle: flips light/dark and remembers the choice (not shown when `strict`). */
export function initAppearance(): void {
  const root = document.documentElement;
  for (const button of document.querySelectorAll<HTMLButtonElement>('[data-control=appearance]')) {
    const sync = () => button.setAttribute('aria-pressed', String(root.dataset.mode === 'dark'));
    sync();
    button.addEventListener('click', () => {
      const mode = root.dataset.mode === 'dark' ? 'light' : 'dark';
      root.dataset.mode = mode;
      try {
        localStorage.setItem(MODE_KEY, mode);
      } catch {
        // Storage can be blocked; the choice then lasts for this page only.
      }
      document.querySelectorAll('[data-control=appearance]').forEach((b) => b.setAttribute('aria-pressed', String(mode === 'dark')));
    });
  }
  // Follow the system while the reader has made no choice of their own.
  const media = matchMedia('(prefers-color-scheme: dark)');
  media.addEventListener('change', () => {
    let stored: string | null;
    try {
      stored = localStorage.getItem(MODE_KEY);
    } catch {
      stored = null;
    }
    const followsSystem = root.dataset.appearance === 'system' && (!stored || root.hasAttribute('data-strict'));
    if (followsSystem) root.dataset.mode = media.matches ? 'dark' : 'light';
  });
}

/** The menu button shows and hides the sidebar (the menu) on narrow screens; Escape and link clicks close it. */
export function initMenu(): void {
  const button = document.querySelector<HTMLButtonElement>('.menu-toggle');
  const sidebar = document.getElementById('sidebar');
  if (!button || !sidebar) return;
  const set = (open: boolean) => {
    button.setAttribute('aria-expanded', String(open));
    document.documentElement.toggleAttribute('data-menu-open', open);
  };
  button.addEventListener('click', () => {
    const open = button.getAttribute('aria-expanded') !== 'true';
    set(open);
    if (!open) return;
    // Focus goes to the current page's link, but the menu opens at its top (the tabs, switchers
    // and links) and scrolls only as far as needed to keep that link in view.
    const target = sidebar.querySelector<HTMLElement>('a[aria-current=page]') ?? sidebar.querySelector<HTMLElement>('a');
    sidebar.scrollTop = 0;
    target?.focus({ preventScroll: true });
    target?.scrollIntoView({ block: 'nearest' });
  });
  document.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && button.getAttribute('aria-expanded') === 'true') {
      set(false);
      button.focus();
    }
  });
  sidebar.addEventListener('click', (e) => {
    if ((e.target as Element).closest('a')) set(false);
  });
}

/**
 * The header's tab row, when its tabs outnumber its width: the page's own tab is scrolled into
 * view, and a vertical mouse wheel over the row scrolls it sideways (until an end, where the page
 * scrolls as usual), since a plain mouse has no other way to reach the hidden tabs.
 */
export function initTabRow(): void {
  const row = document.querySelector<HTMLElement>('.header-tabs');
  if (!row) return;
  const current = row.querySelector<HTMLElement>('[aria-current]');
  if (current && row.scrollWidth > row.clientWidth) {
    const r = row.getBoundingClientRect();
    const c = current.getBoundingClientRect();
    row.scrollLeft += c.left - r.left - (r.width - c.width) / 2;
  }
  row.addEventListener('wheel', (e) => {
    if (Math.abs(e.deltaY) <= Math.abs(e.deltaX) || e.ctrlKey) return;
    const max = row.scrollWidth - row.clientWidth;
    if (max <= 0 || (e.deltaY < 0 && row.scrollLeft <= 0) || (e.deltaY > 0 && row.scrollLeft >= max - 1)) return;
    row.scrollLeft += e.deltaY;
    e.preventDefault();
  }, { passive: false });
}
