/** @jsxRuntime automatic @jsxImportSource preact */
import type { PageShellInput } from '../shared/types.ts';
import { IconGlyph } from '../components/icon.tsx';
import { Icon } from '../components/icons.tsx';
import { uiStrings } from '../shared/ui-strings.ts';
import { Control, type ControlLayout } from './controls.tsx';
import type { DivisionLink } from './divisions.ts';
import { cssValue, withBase } from './urls.ts';

type ShellInput = Omit<PageShellInput, 'page' | 'prev' | 'next'>;

/** The site logo (light and dark images) or, without one, the site name. */
export function Brand({ site }: { site: ShellInput['site'] }) {
  const logo = site.colors?.logo;
  const href = withBase(site.basePath, logo?.href ?? '/');
  const light = logo?.light ?? logo?.dark;
  const dark = logo?.dark ?? logo?.light;
  return (
    <a class="brand" href={href}>
      {light && dark ? (
        <>
          <img class="logo logo-light" src={withBase(site.basePath, light)} alt={site.name} />
          <img class="logo logo-dark" src={withBase(site.basePath, dark)} alt={site.name} />
        </>
      ) : (
        <span class="brand-name">{site.name}</span>
      )}
    </a>
  );
}

/** The navbar's call-to-action button. `external` opens a new tab without giving it `window.opener`. */
export function Cta({ site }: { site: ShellInput['site'] }) {
  const cta = site.navbar?.primaryCta;
  if (!cta) return null;
  const vars = [cssValue(cta.color) && `--cta-bg:${cssValue(cta.color)}`, cssValue(cta.textColor) && `--cta-fg:${cssValue(cta.textColor)}`].filter(Boolean).join(';');
  return (
    <a
      class="cta"
      data-style={cta.style}
      href={withBase(site.basePath, cta.href)}
      style={vars || undefined}
      target={cta.external ? '_blank' : undefined}
      rel={cta.external ? 'noopener' : undefined}
    >
      {cta.label}
    </a>
  );
}

/** A link to a division (tab, anchor): the current one marked, external ones opening a new tab. */
export function DivisionAnchor({ link, basePath }: { link: DivisionLink; basePath: string }) {
  return (
    <a
      href={link.external ? link.href : withBase(basePath, link.href)}
      aria-current={link.current ? 'true' : undefined}
      target={link.external ? '_blank' : undefined}
      rel={link.external ? 'noopener' : undefined}
    >
      {link.title}
      {link.tag ? <span class="nav-tag">{link.tag}</span> : null}
    </a>
  );
}

/** The items of a tab's menu, each with its icon and description, linking to its first page or its `href`. */
export function TabMenuItems({ link, basePath }: { link: DivisionLink; basePath: string }) {
  return (
    <ul>
      {link.menu!.map((item) => (
        <li>
          <a
            href={item.external ? item.href : withBase(basePath, item.href)}
            aria-current={item.current ? 'true' : undefined}
            target={item.external ? '_blank' : undefined}
            rel={item.external ? 'noopener' : undefined}
          >
            {item.icon ? <IconGlyph icon={item.icon.startsWith('/') && !item.icon.startsWith('//') ? withBase(basePath, item.icon) : item.icon} class="nav-icon" /> : null}
            <span class="tab-menu-text">
              <span class="tab-menu-title">{item.title}</span>
              {item.description ? <span class="tab-menu-description">{item.description}</span> : null}
            </span>
          </a>
        </li>
      ))}
    </ul>
  );
}

/** The `<summary>` of a tab with a menu: its title and tag, marked when the page is in it. */
export function TabSummary({ link }: { link: DivisionLink }) {
  return (
    <summary aria-current={link.current ? 'true' : undefined}>
      {link.title}
      {link.tag ? <span class="nav-tag">{link.tag}</span> : null}
      <Icon name="chevron" />
    </summary>
  );
}

/**
 * A tab with a menu (Mintlify's `menu`): a native `<details>` dropdown (no script needed) listing
 * its items (`TabMenuItems`).
 */
export function TabMenu({ link, basePath }: { link: DivisionLink; basePath: string }) {
  return (
    <details class="tab-menu">
      <TabSummary link={link} />
      <TabMenuItems link={link} basePath={basePath} />
    </details>
  );
}

/**
 * Mintlify's banner: text above the header. `[label](url)` becomes a link (http(s), mailto and
 * root-relative targets only); everything else is text.
 */
export function Banner({ site }: { site: ShellInput['site'] }) {
  if (!site.banner) return null;
  const parts: (string | preact.JSX.Element)[] = [];
  const re = /\[([^\]]+)\]\(((?:https?:\/\/|mailto:|\/)[^)\s]*)\)/g;
  let last = 0;
  for (const m of site.banner.content.matchAll(re)) {
    parts.push(site.banner.content.slice(last, m.index));
    parts.push(<a href={m[2].startsWith('/') ? withBase(site.basePath, m[2]) : m[2]}>{m[1]}</a>);
    last = m.index + m[0].length;
  }
  parts.push(site.banner.content.slice(last));
  return <div class="site-banner" role="note" data-pagefind-ignore="all">{parts}</div>;
}

/**
 * The header's tab row: one link per tab (a `<details>` dropdown for a tab with a menu), the
 * page's own tab marked. It scrolls sideways when the tabs outnumber its width.
 */
export function HeaderTabs({ tabs, basePath }: { tabs: DivisionLink[]; basePath: string }) {
  return (
    <div class="header-tabs-row">
      <nav class="header-tabs" aria-label="Sections">
        {tabs.map((link) => (link.menu ? <TabMenu link={link} basePath={basePath} /> : <DivisionAnchor link={link} basePath={basePath} />))}
      </nav>
    </div>
  );
}

/**
 * The site header: a top row (menu button on narrow screens, brand, navbar links, search, header
 * controls, CTA) and, on sites with tabs, the tab row below it. Narrow screens keep the menu
 * button, brand, search and the assistant and appearance buttons; the tabs, switchers, links
 * and CTA are repeated in the menu (`Sidebar`) and shown there instead.
 */
export function Header({ input, controls, tabs = [] }: { input: ShellInput; controls: ControlLayout; tabs?: DivisionLink[] }) {
  const { site } = input;
  return (
    <header class="site-header">
      <div class="header-inner">
        <button class="menu-toggle js-only" type="button" aria-controls="sidebar" aria-expanded="false" aria-label="Menu">
          <Icon name="menu" />
        </button>
        <Brand site={site} />
        {site.navbar?.links?.length ? (
          <nav class="header-links" aria-label="Site">
            {site.navbar.links.map((l) => <a href={withBase(site.basePath, l.href)}>{l.label}</a>)}
          </nav>
        ) : null}
        <button class="search-open js-only" type="button" aria-haspopup="dialog" aria-keyshortcuts="Control+K Meta+K /">
          <Icon name="search" />
          <span class="search-label">{uiStrings(input.locale?.lang).search}</span>
          {/* The shortcut is announced through aria-keyshortcuts; the name stays the visible "Search". */}
          <kbd aria-hidden="true">Ctrl K</kbd>
        </button>
        {controls.header.length ? (
          <div class="header-controls">
            {controls.header.map((name) => <Control name={name} input={input} />)}
          </div>
        ) : null}
        <Cta site={site} />
      </div>
      {tabs.length ? <HeaderTabs tabs={tabs} basePath={site.basePath} /> : null}
    </header>
  );
}
