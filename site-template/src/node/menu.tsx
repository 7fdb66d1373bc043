/** @jsxRuntime automatic @jsxImportSource preact */
import type { PageShellInput } from '../shared/types.ts';
import { Control, type ControlLayout } from './controls.tsx';
import type { DivisionLink } from './divisions.ts';
import { Cta, DivisionAnchor, TabMenuItems, TabSummary } from './header.tsx';
import { withBase } from './urls.ts';

type ShellInput = Omit<PageShellInput, 'page' | 'prev' | 'next'>;

/**
 * A tab with a menu, as the narrow-screen menu lists it: a `<details>` (open when it holds the
 * page) with its items. Not `.tab-menu`: the header's dropdown stays the only one.
 */
function MenuTabGroup({ link, basePath }: { link: DivisionLink; basePath: string }) {
  return (
    <details class="menu-tab-group" open={link.current}>
      <TabSummary link={link} />
      <TabMenuItems link={link} basePath={basePath} />
    </details>
  );
}

/**
 * What the header shows on wide screens and has no room for on narrow ones, repeated at the top
 * of the menu (the sidebar): the tabs, the header's switchers, then the navbar links and the CTA.
 * CSS shows these blocks, and hides the header's copies, below the narrow-screen breakpoint; with
 * JavaScript off they stack above the page with the sidebar, so every link still works.
 */
export function MenuExtras({ input, controls, tabs }: { input: ShellInput; controls: ControlLayout; tabs: DivisionLink[] }) {
  const { site } = input;
  const switchers = controls.header.filter((name) => name === 'language' || name === 'version' || name === 'product');
  const links = site.navbar?.links ?? [];
  return (
    <>
      {tabs.length ? (
        <nav class="menu-tabs" aria-label="Sections">
          {tabs.map((link) => (link.menu ? <MenuTabGroup link={link} basePath={site.basePath} /> : <DivisionAnchor link={link} basePath={site.basePath} />))}
        </nav>
      ) : null}
      {switchers.length ? (
        <div class="menu-controls">
          {switchers.map((name) => <Control name={name} input={input} inMenu />)}
        </div>
      ) : null}
      {links.length || site.navbar?.primaryCta ? (
        <div class="menu-links">
          {links.length ? (
            <nav aria-label="Site">
              {links.map((l) => <a href={withBase(site.basePath, l.href)}>{l.label}</a>)}
            </nav>
          ) : null}
          <Cta site={site} />
        </div>
      ) : null}
    </>
  );
}
