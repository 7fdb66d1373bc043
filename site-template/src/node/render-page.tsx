/** @jsxRuntime automatic @jsxImportSource preact */
import { renderToString } from 'preact-render-to-string';
import type { PageShellInput } from '../shared/types.ts';
import { Icon } from '../components/icons.tsx';
import { resolveControls } from './controls.tsx';
import { Footer } from './footer.tsx';
import { Head } from './head.tsx';
import { hasDivisions, scopeNav } from './divisions.ts';
import { Banner, Header } from './header.tsx';
import { Sidebar, Toc } from './sidebar.tsx';
import { THEME_TRAITS } from './theme-traits.ts';
import { dropTitleHeading } from './title-heading.ts';
import { cssValue, withBase } from './urls.ts';
import { fillNote, uiStrings, type UiStrings } from '../shared/ui-strings.ts';

type ShellInput = Omit<PageShellInput, 'page' | 'prev' | 'next'>;

/** A font stack whose last family is a generic one (`sans-serif`, `ui-monospace`, …). */
const GENERIC_FAMILY_LAST = /(?:^|,)\s*(?:serif|sans-serif|monospace|cursive|fantasy|math|emoji|fangsong|system-ui|ui-serif|ui-sans-serif|ui-monospace|ui-rounded)\s*$/i;

/**
 * Per-site settings as custom properties on <html>; the theme CSS reads them with its own
 * fallbacks, so one stylesheet per theme serves every site.
 */
export function siteStyle(site: PageShellInput['site']): string | undefined {
  const t = site.typography;
  const vars: [string, string | undefined][] = [
    ['--folio-primary', site.colors?.primary],
    ['--folio-primary-light', site.colors?.light],
    ['--folio-primary-dark', site.colors?.dark],
    ['--folio-bg-light', site.background?.light],
    ['--folio-bg-dark', site.background?.dark],
    ['--folio-font', t?.fontFamily],
    ['--folio-heading-font', t?.headingFont],
    ['--folio-body-font', t?.bodyFont],
  ];
  // A family the reader may not have (`Inter`) falls back on the theme's own stack, never on the browser's default serif;
  // a stack that already ends with a generic family (`Verdana, sans-serif`) has its own fallback and is left as written.
  const fallback = (k: string, v: string) => (GENERIC_FAMILY_LAST.test(v) ? '' : k === '--folio-heading-font' ? ', var(--theme-heading-font, var(--theme-font))' : k.endsWith('font') ? ', var(--theme-font)' : '');
  // One family of several words (`Source Sans 3`) is quoted: unquoted, a word starting with a digit makes the whole declaration invalid.
  const family = (k: string, v: string) => (k.endsWith('font') && /\s/.test(v) && !/[,'"]/.test(v) ? `'${v}'` : v);
  const css = vars.flatMap(([k, v]) => { const value = cssValue(v); return value ? [`${k}:${family(k, value)}${fallback(k, value)}`] : []; }).join(';');
  return css || undefined;
}

function Pager({ prev, next, basePath, t }: Pick<PageShellInput, 'prev' | 'next'> & { basePath: string; t: UiStrings }) {
  if (!prev && !next) return null;
  return (
    <nav class="pager" aria-label="Previous and next pages" data-pagefind-ignore="all">
      {prev ? (
        <a class="pager-prev" href={withBase(basePath, prev.path)} rel="prev">
          <span class="pager-dir"><Icon name="left" />{t.previous}</span>
          <span class="pager-title">{prev.title}</span>
        </a>
      ) : null}
      {next ? (
        <a class="pager-next" href={withBase(basePath, next.path)} rel="next">
          <span class="pager-dir">{t.next}<Icon name="right" /></span>
          <span class="pager-title">{next.title}</span>
        </a>
      ) : null}
    </nav>
  );
}

function PageActions({ page, basePath, t }: { page: PageShellInput['page']; basePath: string; t: UiStrings }) {
  return (
    <div class="page-actions" data-pagefind-ignore="all">
      {/* A plain link to the Markdown export; the client turns the click into a copy. */}
      <a class="copy-page" href={withBase(basePath, page.markdownPath)} data-copy-markdown="">
        <Icon name="copy" class="icon-copy" />
        <Icon name="check" class="icon-check" />
        <span>{t.copyPage}</span>
      </a>
      {page.rss ? (
        <a class="rss-link" href={withBase(basePath, page.feedPath)} type="application/rss+xml">
          <Icon name="rss" />
          <span>{t.subscribe}</span>
        </a>
      ) : null}
    </div>
  );
}

function Feedback({ t }: { t: UiStrings }) {
  return (
    <div class="feedback js-only" data-pagefind-ignore="all">
      <p id="feedback-q">{t.helpful}</p>
      <div role="group" aria-labelledby="feedback-q">
        <button type="button" data-feedback="up" aria-label={t.yes} aria-pressed="false"><Icon name="up" /></button>
        <button type="button" data-feedback="down" aria-label={t.no} aria-pressed="false"><Icon name="down" /></button>
      </div>
      <p class="feedback-thanks" role="status" />
    </div>
  );
}

interface ShellProps {
  input: ShellInput;
  page: PageShellInput['page'];
  prev?: PageShellInput['prev'];
  next?: PageShellInput['next'];
  notFound?: boolean;
}

/** The note above a page shown in another language or version than the reader's. */
function FallbackNote({ fallback, basePath, t }: { fallback: NonNullable<NonNullable<PageShellInput['locale']>['fallback']>; basePath: string; t: UiStrings }) {
  const text = fillNote(fallback.missing === 'language' ? t.fallbackLanguage : t.fallbackVersion, fallback);
  return (
    <p class="fallback-note" role="note" data-pagefind-ignore="all" data-fallback={fallback.missing}>
      <a href={withBase(basePath, fallback.href)}>{text}</a>
    </p>
  );
}

function Shell({ input: full, page, prev, next, notFound }: ShellProps) {
  const { site } = full;
  // Divisions (tabs, languages, …): the page sees its own part of the tree; see divisions.ts.
  const scoped = hasDivisions(full.nav) ? scopeNav(full.nav, page.path) : undefined;
  const input = scoped ? { ...full, nav: scoped.sidebar, switchers: { ...scoped.switchers, ...full.switchers } } : full;
  const controls = resolveControls(input);
  const traits = THEME_TRAITS[site.theme];
  const footerWidth = site.footer?.width ?? traits.footerWidth ?? 'reading';
  const t = uiStrings(full.locale?.lang);
  const fallback = notFound ? undefined : full.locale?.fallback;
  return (
    <html
      lang={full.locale?.lang ?? 'en'}
      data-theme={site.theme}
      data-appearance={site.appearance.default}
      data-strict={site.appearance.strict ? '' : undefined}
      data-mode={site.appearance.default === 'system' ? undefined : site.appearance.default}
      data-footer-width={footerWidth}
      data-header={traits.header}
      data-sidebar={traits.sidebar}
      data-width={traits.width}
      data-code={traits.code}
      data-tabs={scoped?.tabs.length ? '' : undefined}
      data-page-mode={notFound ? undefined : page.mode}
      style={siteStyle(site)}
    >
      <Head input={input} page={notFound ? undefined : page} title={page.title} notFound={notFound} />
      <body>
        <a class="skip-link" href="#content">{t.skipToContent}</a>
        <Banner site={site} />
        <Header input={input} controls={controls} tabs={scoped?.tabs} />
        <div class="layout">
          <Sidebar input={input} current={page.path} controls={controls} anchors={scoped?.anchors} tabs={scoped?.tabs} />
          {/* The 404's main carries `data-folio-slot`: the site server puts its sign-in and password pages there (control-plane sites/themed-page.ts). */}
          <main class="content" id="content" tabindex={-1} data-folio-slot={notFound ? 'content' : undefined}>
            <article class="page" data-pagefind-body={notFound ? undefined : ''}>
              <header class="page-header">
                <h1>{page.title}</h1>
                {page.description ? <p class="page-description">{page.description}</p> : null}
                {notFound ? null : <PageActions page={page} basePath={site.basePath} t={t} />}
              </header>
              {fallback ? <FallbackNote fallback={fallback} basePath={site.basePath} t={t} /> : null}
              <div class="prose" dangerouslySetInnerHTML={{ __html: dropTitleHeading(page.bodyHtml, page.title) }} />
            </article>
            {notFound ? null : <Feedback t={t} />}
            <Pager prev={prev} next={next} basePath={site.basePath} t={t} />
          </main>
          <Toc toc={page.toc} label={t.onThisPage} />
        </div>
        <Footer site={site} year={input.year} />
      </body>
    </html>
  );
}

/** Renders one docs page: a complete `<!doctype html>` document around the builder's body HTML. */
export function renderPage(input: PageShellInput): string {
  const { page, prev, next, ...rest } = input;
  return '<!doctype html>' + renderToString(<Shell input={rest} page={page} prev={prev} next={next} />);
}

/**
 * Renders the 404 page with the site's shell (header, navigation, footer), `noindex` and no
 * canonical URL. `title` defaults to "Page not found".
 */
export function render404(input: ShellInput & { title?: string }): string {
  const { title = 'Page not found', ...rest } = input;
  const home = withBase(rest.site.basePath, '/');
  const page: PageShellInput['page'] = {
    path: '/404',
    title,
    bodyHtml: `<p>The page you are looking for does not exist or has moved.</p><p><a href="${home.replace(/"/g, '&quot;')}">Go to the home page</a> or use the search.</p>`,
    toc: [],
    rss: false,
    markdownPath: '',
    feedPath: '',
  };
  return '<!doctype html>' + renderToString(<Shell input={rest} page={page} notFound />);
}
