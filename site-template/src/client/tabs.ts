/**
 * WAI-ARIA tabs behaviour shared by `<Tabs>` and `<CodeGroup>`: click or arrow keys (Left/Right,
 * Home/End) select a tab and show its panel; only the selected tab is in the Tab order.
 */
import { fragmentNames } from '../node/anchor-id.ts';

export function wireTabs(root: HTMLElement, tabs: HTMLElement[], panels: HTMLElement[]): void {
  const select = (index: number, focus: boolean) => {
    tabs.forEach((tab, i) => {
      const on = i === index;
      tab.setAttribute('aria-selected', String(on));
      tab.tabIndex = on ? 0 : -1;
      panels[i].hidden = !on;
    });
    if (focus) tabs[index].focus();
  };
  tabs.forEach((tab, i) => {
    tab.addEventListener('click', () => select(i, false));
    tab.addEventListener('keydown', (e) => {
      const last = tabs.length - 1;
      const to = e.key === 'ArrowRight' ? (i === last ? 0 : i + 1)
        : e.key === 'ArrowLeft' ? (i === 0 ? last : i - 1)
        : e.key === 'Home' ? 0
        : e.key === 'End' ? last
        : -1;
      if (to < 0) return;
      e.preventDefault();
      select(to, true);
    });
  });
  const initial = Math.max(0, tabs.findIndex((t) => t.getAttribute('aria-selected') === 'true'));
  select(initial, false);
  root.setAttribute('data-ready', '');
}

/**
 * Selects the tab whose panel has the id in the address (`#oauth-2-0`, Mintlify's id of the tab's
 * title) and scrolls to it. A click on the tab itself selects it, as before.
 */
function openTabOfHash(): void {
  const hash = location.hash.slice(1);
  if (!hash) return;
  let id: string;
  try { id = decodeURIComponent(hash); } catch { return; }
  let panel = document.getElementById(id);
  if (!panel) {
    // `#meta` for the heading `_meta`: the form links written for Mintlify sites also use.
    panel = [...document.querySelectorAll<HTMLElement>('main [id^="_"], main [id^="@"], main [id^="$"]')].find((el) => fragmentNames(id, el.id)) ?? null;
    if (panel && panel.getAttribute('role') !== 'tabpanel') { panel.scrollIntoView({ block: 'start' }); return; }
    if (panel) id = panel.id;
  }
  if (panel?.getAttribute('role') !== 'tabpanel') return;
  const tab = panel.parentElement?.querySelector<HTMLElement>(`:scope > [role=tablist] > [aria-controls="${CSS.escape(id)}"]`);
  if (!tab || tab.getAttribute('aria-selected') === 'true') return;
  tab.click();
  tab.scrollIntoView({ block: 'start' });
}

let hashListener = false;

/** Enhances server-rendered `<Tabs>` (tab list already in the markup). */
export function initTabs(): void {
  for (const root of document.querySelectorAll<HTMLElement>('[data-tabs]:not([data-ready])')) {
    const tabs = [...root.querySelectorAll<HTMLElement>(':scope > [role=tablist] > [role=tab]')];
    const panels = [...root.querySelectorAll<HTMLElement>(':scope > [role=tabpanel]')];
    if (tabs.length && tabs.length === panels.length) wireTabs(root, tabs, panels);
  }
  openTabOfHash();
  if (!hashListener) {
    hashListener = true;
    window.addEventListener('hashchange', openTabOfHash);
  }
}

let groupCount = 0;

/** Builds the tab list of each `<CodeGroup>` from its blocks' titles (or languages). */
export function initCodeGroups(): void {
  for (const root of document.querySelectorAll<HTMLElement>('[data-code-group]:not([data-ready])')) {
    const panels = [...root.querySelectorAll<HTMLElement>(':scope > figure.code-block')];
    if (!panels.length) continue;
    const id = `cg${++groupCount}`;
    const list = document.createElement('div');
    list.className = 'tab-list';
    list.setAttribute('role', 'tablist');
    const tabs = panels.map((panel, i) => {
      const tab = document.createElement('button');
      tab.type = 'button';
      tab.setAttribute('role', 'tab');
      tab.id = `${id}-t${i}`;
      tab.textContent = panel.querySelector('.code-title')?.textContent?.trim() || panel.dataset.lang || `Tab ${i + 1}`;
      tab.setAttribute('aria-controls', (panel.id ||= `${id}-p${i}`));
      tab.setAttribute('aria-selected', String(i === 0));
      panel.setAttribute('role', 'tabpanel');
      panel.setAttribute('aria-labelledby', tab.id);
      list.append(tab);
      return tab;
    });
    root.prepend(list);
    wireTabs(root, tabs, panels);
  }
}
