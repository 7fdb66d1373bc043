import { flushBeacons, trackSearch } from './beacons.ts';
import { currentResults, loadOverlay, type SearchOverlay } from './search-overlay.ts';
/** The subset of Pagefind's JS API the dialog uses. */
interface PagefindResultData {
  url: string;
  excerpt: string;
  meta: { title?: string; path?: string };
  sub_results?: { title: string; url: string; excerpt: string }[];
}
interface Pagefind {
  mergeIndex(base: string, o?: Record<string, unknown>): Promise<void>;
  init(): Promise<void>;
  destroy(): Promise<void>;
  search(q: string, o?: { filters?: Record<string, string> }): Promise<{ results: { id: string; data(): Promise<PagefindResultData> }[] } | null>;
}
interface PagefindModule { createInstance(o: { basePath: string }): Pagefind }

/**
 * The page's language and version (`<meta name="folio-scope">`, on sites that have them):
 * `scope` (`fr/v2`) is the Pagefind filter of the pages read in them, `prefix` (`/fr/v2`) their
 * URL prefix. Search lists only those pages, each at its URL in the reader's language and
 * version (a page shown there by fallback is indexed once, at its own URL, with its path).
 */
export function searchScope(doc: Document = document): { scope: string; prefix: string } | undefined {
  const raw = doc.querySelector<HTMLMetaElement>('meta[name=folio-scope]')?.content;
  if (!raw) return undefined;
  try {
    const value = JSON.parse(raw) as { scope?: unknown; prefix?: unknown };
    return typeof value.scope === 'string' && typeof value.prefix === 'string' ? { scope: value.scope, prefix: value.prefix } : undefined;
  } catch {
    return undefined;
  }
}

/** A result's link in the reader's language and version: the prefix (with the docs base), the page's path and anchor. */
export function scopedUrl(url: string, path: string | undefined, scope: { prefix: string } | undefined): string {
  if (!scope || path === undefined) return url;
  const hash = url.includes('#') ? url.slice(url.indexOf('#')) : '';
  return (scope.prefix + (path === '/' ? '' : path) || '/') + hash;
}

/** Results shown per query. */
export const MAX_RESULTS = 8;

let pagefind: Promise<{ pf: Pagefind; overlay?: SearchOverlay }> | undefined;

/**
 * Loads Pagefind on first use. `<meta name="folio-search">` lists the bundle bases
 * (comma-separated; the first is loaded, the others merged into it), then the overlay's list
 * (`…/overlay.json`, see search-overlay.ts), whose bundle is merged too. An instance of its own
 * (not Pagefind's module-wide one) so that a failed load leaves nothing half-merged for the retry.
 */
function loadPagefind(): Promise<{ pf: Pagefind; overlay?: SearchOverlay }> {
  pagefind ??= (async () => {
    const entries = (document.querySelector<HTMLMetaElement>('meta[name=folio-search]')?.content ?? '/_pagefind/')
      .split(',').map((b) => b.trim()).filter(Boolean);
    const list = entries.find((e) => e.endsWith('.json'));
    const bases = entries.filter((e) => !e.endsWith('.json')).map((b) => (b.endsWith('/') ? b : b + '/'));
    const [mod, overlay] = await Promise.all([
      import(/* @vite-ignore */ new URL(bases[0] + 'pagefind.js', location.href).href) as Promise<PagefindModule>,
      list ? loadOverlay(list) : undefined,
    ]);
    const open = async (merged: string[]) => {
      const pf = mod.createInstance({ basePath: bases[0] });
      try {
        for (const base of merged) await pf.mergeIndex(base);
        await pf.init();
        return pf;
      } catch (error) {
        await pf.destroy().catch(() => undefined);
        throw error;
      }
    };
    let pf: Pagefind;
    try {
      pf = await open([...bases.slice(1), ...(overlay?.base ? [overlay.base] : [])]);
    } catch (error) {
      if (!overlay?.base) throw error;
      // A list naming an overlay already replaced (cached for its minute, or read mid-publish):
      // search the shards alone, still hiding the URLs it covers, rather than nothing.
      pf = await open(bases.slice(1));
    }
    return { pf, ...(overlay ? { overlay } : {}) };
  })();
  pagefind.catch(() => (pagefind = undefined));
  return pagefind;
}

function el<K extends keyof HTMLElementTagNameMap>(tag: K, className: string, text?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function buildDialog(): { dialog: HTMLDialogElement; input: HTMLInputElement; list: HTMLUListElement; status: HTMLElement } {
  const dialog = el('dialog', 'search-dialog');
  dialog.setAttribute('aria-label', 'Search documentation');
  const form = el('form', 'search-form');
  form.method = 'dialog';
  form.setAttribute('role', 'search');
  const input = el('input', 'search-input');
  Object.assign(input, { type: 'search', placeholder: 'Search the docs…', autocomplete: 'off', spellcheck: false });
  input.setAttribute('aria-label', 'Search');
  input.setAttribute('role', 'combobox');
  input.setAttribute('aria-expanded', 'true');
  input.setAttribute('aria-controls', 'search-results');
  input.setAttribute('aria-autocomplete', 'list');
  const list = el('ul', 'search-results');
  list.id = 'search-results';
  list.setAttribute('role', 'listbox');
  list.setAttribute('aria-label', 'Results');
  const status = el('p', 'search-status');
  status.setAttribute('role', 'status');
  form.append(input);
  dialog.append(form, list, status);
  document.body.append(dialog);
  return { dialog, input, list, status };
}

/** Wires the search button, Ctrl/Cmd+K and `/` to a dialog over the Pagefind index. */
export function initSearch(): void {
  let ui: ReturnType<typeof buildDialog> | undefined;
  let active = -1;
  let seq = 0;

  const options = () => [...(ui?.list.querySelectorAll<HTMLElement>('[role=option]') ?? [])];
  const highlight = (index: number) => {
    const all = options();
    active = all.length ? (index + all.length) % all.length : -1;
    all.forEach((o, i) => o.setAttribute('aria-selected', String(i === active)));
    if (active >= 0) {
      ui!.input.setAttribute('aria-activedescendant', all[active].id);
      all[active].scrollIntoView({ block: 'nearest' });
    } else ui!.input.removeAttribute('aria-activedescendant');
  };

  const run = async (query: string) => {
    const mine = ++seq;
    const { list, status } = ui!;
    if (!query.trim()) {
      list.replaceChildren();
      status.textContent = '';
      highlight(-1);
      return;
    }
    try {
      const { pf, overlay } = await loadPagefind();
      const scope = searchScope();
      const found = await pf.search(query, scope ? { filters: { scope: scope.scope } } : undefined);
      const { data, dropped } = await currentResults(found?.results ?? [], overlay, MAX_RESULTS);
      if (mine !== seq) return;
      list.replaceChildren(...data.map((d, i) => {
        const section = d.sub_results?.find((s) => s.url.includes('#') && s.title !== d.meta.title);
        const li = el('li', 'search-result');
        li.id = `search-result-${i}`;
        li.setAttribute('role', 'option');
        const a = el('a', 'search-link');
        a.href = scopedUrl(section?.url ?? d.url, d.meta.path, scope);
        a.tabIndex = -1;
        a.append(el('span', 'search-title', d.meta.title ?? d.url));
        if (section) a.append(el('span', 'search-section', section.title));
        const excerpt = el('span', 'search-excerpt');
        // Pagefind escapes the page text and adds only <mark> around matches.
        excerpt.innerHTML = section?.excerpt ?? d.excerpt;
        a.append(excerpt);
        li.append(a);
        return li;
      }));
      trackSearch(query, (found?.results.length ?? 0) - dropped);
      status.textContent = data.length ? `${data.length} result${data.length === 1 ? '' : 's'}` : `No results for “${query}”`;
      highlight(0);
    } catch {
      if (mine === seq) status.textContent = 'Search is unavailable right now.';
    }
  };

  // Where focus was before the dialog opened: closing returns it there, so keyboard users keep their place.
  let opener: HTMLElement | null = null;
  const open = () => {
    if (!ui) {
      ui = buildDialog();
      const { dialog, input, list } = ui;
      input.addEventListener('input', () => void run(input.value));
      input.addEventListener('keydown', (e) => {
        if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
          e.preventDefault();
          highlight(active + (e.key === 'ArrowDown' ? 1 : -1));
        } else if (e.key === 'Enter') {
          e.preventDefault();
          options()[active]?.querySelector('a')?.click();
        } else if (e.key === 'Escape') {
          // One Esc closes, as in DocSearch and VitePress: a search input's own Esc would only
          // clear the text and take a second press. The text stays for the next open, selected.
          e.preventDefault();
          dialog.close();
        }
      });
      // A chosen result or a closed dialog ends the search: report it now, not after the pause.
      dialog.addEventListener('close', flushBeacons);
      list.addEventListener('click', (e) => {
        if ((e.target as Element).closest('a')) dialog.close();
      });
      // A click on the backdrop (the dialog box itself, outside its content) closes it.
      dialog.addEventListener('click', (e) => {
        if (e.target === dialog) dialog.close();
      });
      dialog.addEventListener('close', () => {
        if (opener?.isConnected) opener.focus();
        opener = null;
      });
    }
    if (!ui.dialog.open) {
      const active = document.activeElement;
      opener = active instanceof HTMLElement && active !== document.body ? active : null;
      ui.dialog.showModal();
    }
    ui.input.focus();
    ui.input.select();
    void loadPagefind().catch(() => undefined);
  };

  const mac = /Mac|iPhone|iPad/.test(navigator.platform);
  for (const b of document.querySelectorAll<HTMLButtonElement>('.search-open')) {
    b.addEventListener('click', open);
    const kbd = b.querySelector('kbd');
    if (kbd && mac) kbd.textContent = '⌘K';
  }
  document.addEventListener('folio:search', open);
  document.addEventListener('keydown', (e) => {
    const t = e.target as HTMLElement;
    const typing = t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName);
    if ((e.key === 'k' || e.key === 'K') && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      open();
    } else if (e.key === '/' && !typing && !e.ctrlKey && !e.metaKey && !e.altKey) {
      e.preventDefault();
      open();
    }
  });
}
