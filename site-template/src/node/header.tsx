/** @jsxRuntime automatic @jsxImportSource preact */
import type { PageShellInput } from '../shared/types.ts';
import { Icon } from '../components/icons.tsx';
import { Control, type ControlLayout } from './controls.tsx';
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

/** The site header: menu button (narrow screens), brand, links, search, header controls, CTA. */
export function Header({ input, controls }: { input: ShellInput; controls: ControlLayout }) {
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
          <span class="search-label">Search</span>
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
    </header>
  );
}
