/** @jsxRuntime automatic @jsxImportSource preact */
import type { NavItem, PageShellInput, TocEntry } from '../shared/types.ts';
import { Control, type ControlLayout } from './controls.tsx';
import { withBase } from './urls.ts';

function NavList({ items, current, basePath }: { items: NavItem[]; current: string; basePath: string }) {
  return (
    <ul>
      {items.map((item) =>
        item.kind === 'page' ? (
          <li>
            <a href={withBase(basePath, item.path)} aria-current={item.path === current ? 'page' : undefined}>{item.title}</a>
          </li>
        ) : (
          <li class="nav-group">
            <p class="nav-group-title">{item.title}</p>
            <NavList items={item.items} current={current} basePath={basePath} />
          </li>
        ),
      )}
    </ul>
  );
}

/**
 * The sidebar: the site navigation with the current page marked `aria-current="page"`, and a
 * footer bar for controls placed in the sidebar. On narrow screens the menu button shows it.
 */
export function Sidebar({ input, current, controls }: { input: Omit<PageShellInput, 'page' | 'prev' | 'next'>; current: string; controls: ControlLayout }) {
  return (
    <aside class="sidebar" id="sidebar" data-pagefind-ignore="all">
      <nav class="sidebar-nav" aria-label="Documentation">
        <NavList items={input.nav} current={current} basePath={input.site.basePath} />
      </nav>
      {controls.sidebar.length ? (
        <div class="sidebar-footer">
          {controls.sidebar.map((name) => <Control name={name} input={input} />)}
        </div>
      ) : null}
    </aside>
  );
}

/** The on-page table of contents (h2 and h3); nothing for pages without headings. */
export function Toc({ toc }: { toc: TocEntry[] }) {
  const entries = toc.filter((e) => e.depth >= 2 && e.depth <= 3);
  if (!entries.length) return null;
  return (
    <aside class="toc" data-pagefind-ignore="all">
      <nav aria-labelledby="toc-title">
        <p class="toc-title" id="toc-title">On this page</p>
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
