/** @jsxRuntime automatic @jsxImportSource preact */
import type { PageShellInput } from '../shared/types.ts';
import { Icon, hasIcon } from '../components/icons.tsx';
import { Brand } from './header.tsx';
import { withBase } from './urls.ts';

type Site = PageShellInput['site'];

/** Display names of the social platforms with an icon; other slugs show as text links. */
export const SOCIAL_LABELS: Record<string, string> = {
  github: 'GitHub', x: 'X', linkedin: 'LinkedIn', discord: 'Discord', youtube: 'YouTube', facebook: 'Facebook',
  website: 'Website', slack: 'Slack', instagram: 'Instagram', hackernews: 'Hacker News', medium: 'Medium',
  telegram: 'Telegram', bluesky: 'Bluesky', threads: 'Threads', reddit: 'Reddit', podcast: 'Podcast',
};

/** Social links: an icon with an accessible name for known platforms, the slug as text otherwise. */
export function Social({ social }: { social?: Record<string, string> }) {
  const entries = Object.entries(social ?? {});
  if (!entries.length) return null;
  return (
    <ul class="social">
      {entries.map(([slug, href]) => (
        <li>
          {Object.hasOwn(SOCIAL_LABELS, slug) && hasIcon(slug) ? (
            <a href={href} aria-label={SOCIAL_LABELS[slug]} rel="noopener" data-platform={slug}>
              <Icon name={slug} />
            </a>
          ) : (
            <a href={href} rel="noopener">{slug}</a>
          )}
        </li>
      ))}
    </ul>
  );
}

/** Legal line: copyright (`{year}` expanded), privacy, terms, cookie policy and extra links. */
export function Legal({ site, year }: { site: Site; year: number }) {
  const legal = site.legal;
  if (!legal) return null;
  const links = [
    legal.privacyUrl && { label: 'Privacy', href: legal.privacyUrl },
    legal.termsUrl && { label: 'Terms', href: legal.termsUrl },
    legal.cookieUrl && { label: 'Cookies', href: legal.cookieUrl },
    ...(legal.links ?? []),
  ].filter((l): l is { label: string; href: string } => !!l);
  if (!legal.copyright && !links.length) return null;
  return (
    <div class="legal">
      {legal.copyright ? <p class="copyright">{legal.copyright.replaceAll('{year}', String(year))}</p> : null}
      {links.length ? (
        <nav aria-label="Legal">
          {links.map((l) => <a href={withBase(site.basePath, l.href)}>{l.label}</a>)}
        </nav>
      ) : null}
    </div>
  );
}

/**
 * The site footer. `none` keeps only the legal line (when there is one), `page` is one row of
 * logo, social links and legal, `columns` adds the link columns. Width comes from the
 * `data-footer-width` attribute on <html>.
 */
export function Footer({ site, year }: { site: Site; year: number }) {
  const footer = site.footer ?? { style: 'none' as const };
  const legal = <Legal site={site} year={year} />;
  if (footer.style === 'none') {
    return site.legal ? <footer class="site-footer" data-style="none"><div class="footer-inner">{legal}</div></footer> : null;
  }
  return (
    <footer class="site-footer" data-style={footer.style} data-pagefind-ignore="all">
      <div class="footer-inner">
        <div class="footer-main">
          <div class="footer-brand">
            {footer.logo ? <Brand site={site} /> : null}
            <Social social={footer.social} />
          </div>
          {footer.style === 'columns' && footer.links?.length ? (
            <div class="footer-columns">
              {footer.links.map((col) => (
                <nav aria-label={col.title}>
                  <p class="footer-column-title">{col.title}</p>
                  <ul>
                    {col.items.map((l) => <li><a href={withBase(site.basePath, l.href)}>{l.label}</a></li>)}
                  </ul>
                </nav>
              ))}
            </div>
          ) : null}
        </div>
        {legal}
      </div>
    </footer>
  );
}
