/** @jsxRuntime automatic @jsxImportSource preact */
import type { PageShellInput, TocEntry } from '../shared/types.ts';
import { Control, type ControlLayout } from './controls.tsx';
import type { DivisionLink } from './divisions.ts';
import { DivisionAnchor } from './header.tsx';
import { MenuExtras } from './menu.tsx';
import { SidebarNav } from './sidebar-nav.tsx';

/**
 * The sidebar: the site navigation with the current page marked `aria-current="page"`, and a
 * footer bar for controls placed in the sidebar. On narrow screens the menu button shows it,
 * topped with what the header has no room for there: the tabs, the switchers, the navbar links
 * and the CTA (`MenuExtras`).
 */
export function Sidebar({ input, current, controls, anchors = [], tabs = [] }: {
  input: Omit<PageShellInput, 'page' | 'prev' | 'next'>; current: string; controls: ControlLayout; anchors?: DivisionLink[]; tabs?: DivisionLink[];
}) {
  return (
    <aside class="sidebar" id="sidebar" data-pagefind-ignore="all">
      <MenuExtras input={input} controls={controls} tabs={tabs} />
      {anchors.length ? (
        <nav class="nav-anchors" aria-label="Sections">
          {anchors.map((link) => <DivisionAnchor link={link} basePath={input.site.basePath} />)}
        </nav>
      ) : null}
      <SidebarNav items={input.nav} current={current} basePath={input.site.basePath} />
      {controls.sidebar.length ? (
        <div class="sidebar-footer">
          {controls.sidebar.map((name) => <Control name={name} input={input} />)}
        </div>
      ) : null}
    </aside>
  );
}

/** The on-page table of contents (h2 and h3); nothing for pages without headings. */
export function Toc({ toc, label = 'On this page' }: { toc: TocEntry[]; label?: string }) {
  const entries = toc.filter((e) => e.depth >= 2 && e.depth <= 3);
  if (!entries.length) return null;
  return (
    <aside class="toc" data-pagefind-ignore="all">
      <nav aria-labelledby="toc-title">
        <p class="toc-title" id="toc-title">{label}</p>
        <ul>
          {entries.map((e) => (
            <li data-depth={e.depth}>
              <a href={`#${e.id}`}>{e.text}</a>
            </li>
          ))}
        </ul>
      </nav>
    </aside>
  );
}
