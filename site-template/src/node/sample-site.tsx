/** @jsxRuntime automatic @jsxImportSource preact */
import { renderToString } from 'preact-render-to-string';
import type { ClientAssets, NavItem, PageShellInput, SiteConfig, ThemeName } from '../shared/types.ts';
import { Accordion, AccordionGroup, Card, CardGroup, Steps, Step, Update, Visibility, Badge, Frame } from '../components/blocks.tsx';
import { Note, Warning } from '../components/callout.tsx';
import { Tab, Tabs } from '../components/tabs.tsx';

function esc(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** Options of a sample code block, mirroring the fence meta options of spec 2.12. */
export interface SampleCodeOptions {
  lang?: string; title?: string; lines?: boolean; wrap?: boolean; expandable?: boolean; highlight?: number[]; focus?: number[];
  /** A `diff` fence: the lines (1-based) added and removed. */
  diff?: { add?: number[]; remove?: number[] };
}

/**
 * A code block in the markup the builder emits (docs/markup-contract.md), with shiki-style
 * dual-theme spans (`defaultColor: false`: both colours as CSS variables). Used by the sample page, the tests and the bench.
 */
export function sampleCodeBlock(code: string, o: SampleCodeOptions = {}): string {
  const lang = o.lang ?? 'ts';
  const lines = code.split('\n').map((text, i) => {
    const change = o.diff?.add?.includes(i + 1) ? 'diff add' : o.diff?.remove?.includes(i + 1) ? 'diff remove' : undefined;
    const cls = ['line', o.highlight?.includes(i + 1) && 'highlighted', o.focus?.includes(i + 1) && 'focused', change].filter(Boolean).join(' ');
    // A `//` line is a comment, in the code themes' comment grey (the palest colour they use on text).
    const words = /^\s*\/\//.test(text) ? [`<span style="--shiki-light:#6A737D;--shiki-dark:#6A737D">${esc(text)}</span>`]
      : text.split(/(\s+)/).map((w, j) => (w.trim() ? `<span style="--shiki-light:${j % 4 ? '#24292E' : '#D73A49'};--shiki-dark:${j % 4 ? '#E1E4E8' : '#F97583'}">${esc(w)}</span>` : esc(w)));
    return `<span class="${cls}">${words.join('')}</span>`;
  });
  const attrs = [
    `data-lang="${lang}"`, o.lines && 'data-line-numbers', o.wrap && 'data-wrap', o.expandable && 'data-expandable', o.focus?.length && 'data-has-focus', o.diff && 'data-diff',
  ].filter(Boolean).join(' ');
  return `<figure class="code-block" ${attrs}>` +
    (o.title ? `<figcaption class="code-title">${esc(o.title)}</figcaption>` : '') +
    `<div class="code-badge">${lang}</div>` +
    '<button class="code-copy" type="button" aria-label="Copy code" hidden>' +
    '<svg class="icon-copy" viewBox="0 0 24 24" width="16" height="16" fill="none" stroke="currentColor" stroke-width="2" aria-hidden="true"><rect x="9" y="9" width="13" height="13" rx="2"/><path d="M5 15H4a2 2 0 0 1-2-2V4a2 2 0 0 1 2-2h9a2 2 0 0 1 2 2v1"/></svg>' +
    '<svg class="icon-check" viewBox="0 0 24 24" width="16" height="16" fill="none" stroke="currentColor" stroke-width="2" aria-hidden="true"><path d="M20 6L9 17l-5-5"/></svg></button>' +
    `<pre class="shiki shiki-themes github-light github-dark" style="--shiki-light:#24292e;--shiki-dark:#e1e4e8;--shiki-light-bg:#fff;--shiki-dark-bg:#24292e" tabindex="0"><code>${lines.join('\n')}</code></pre>` +
    `<template class="code-raw">${esc(code)}</template>` +
    (o.expandable ? '<button class="code-expand" type="button" aria-expanded="false">Show more</button>' : '') +
    '</figure>';
}

const INSTALL = 'npm install @acme/sdk\nnpx acme init --project my-docs';
/** Markup-significant characters, so copying proves the raw code survives escaping. */
export const SNIPPET = '<a href="/docs?a=1&b=2">Docs & more</a>\n<script src="https://acme.example/w.js" async></script>';
const CLIENT = Array.from({ length: 24 }, (_, i) =>
  i === 0 ? "import { Client } from '@acme/sdk';" : i === 1 ? '' : `const step${i} = await client.run({ id: ${i}, retries: 3, label: 'step ${i}' });`,
).join('\n');

/** A heading as the builder emits it: slug id, then the `#` anchor link (hidden from assistive tech). */
export function heading(depth: number, id: string, text: string): string {
  return `<h${depth} id="${id}">${esc(text)}<a class="heading-anchor" href="#${id}" aria-hidden="true" tabindex="-1">#</a></h${depth}>`;
}

/** The body HTML of a realistic docs page: prose, headings, code blocks and every MDX component. */
export function sampleBodyHtml(): string {
  const components = renderToString(
    <>
      <Note>Tokens are scoped to one project. Rotate them from the dashboard.</Note>
      <Warning title="Breaking change">Version 2 renames <code>run</code> to <code>execute</code>.</Warning>
      <Tabs>
        <Tab title="npm"><p>Use npm 10 or newer.</p></Tab>
        <Tab title="pnpm"><p>pnpm works the same way.</p></Tab>
      </Tabs>
      <Steps>
        <Step title="Create a project"><p>Run the init command.</p></Step>
        <Step title="Write a page"><p>Add an MDX file under <code>docs/</code>.</p></Step>
      </Steps>
      <CardGroup cols={2}>
        <Card title="Quickstart" href="/quickstart" icon="🚀">Ship a site in five minutes.</Card>
        <Card title="API reference" href="/api" icon="📘">Every endpoint, with examples.</Card>
      </CardGroup>
      <AccordionGroup>
        <Accordion title="Which Node versions are supported?">Node 20 and newer.</Accordion>
        <Accordion title="Can I self-host?" description="Yes, with Docker.">See the install guide.</Accordion>
      </AccordionGroup>
      <Frame caption="The dashboard"><p>Screenshot goes here.</p></Frame>
      <p>Status: <Badge color="green">Stable</Badge></p>
      <Visibility for="agents"><p>Agents: prefer the REST API over scraping pages.</p></Visibility>
      <Visibility for="humans"><p>Humans: the quickstart is the fastest way in.</p></Visibility>
      <Update label="v2.1.0" date="2025-05-01" description="Faster builds"><p>Incremental syncs are now the default.</p></Update>
    </>,
  );
  // Code fences arrive as HTML strings, so the group is assembled the way compiled MDX nests them.
  const codeGroup = '<div class="code-group" data-code-group="">' +
    sampleCodeBlock('const client = new Client();', { lang: 'ts', title: 'client.ts' }) +
    sampleCodeBlock('client = Client()', { lang: 'py', title: 'client.py' }) + '</div>';
  return [
    '<p>The SDK wraps the REST API with typed helpers, retries and pagination. This page walks through installing it, authenticating and making a first call.</p>',
    heading(2, 'install', 'Install'),
    '<p>Install the package and create a configuration file in your repository:</p>',
    sampleCodeBlock(INSTALL, { lang: 'bash', title: 'Terminal' }),
    '<p>Link to the docs from your own pages:</p>',
    sampleCodeBlock(SNIPPET, { lang: 'html', title: 'page.html' }),
    heading(2, 'authenticate', 'Authenticate'),
    '<p>Create an API key in the dashboard and pass it to the client. Keys belong to one organization and see only its projects.</p>',
    sampleCodeBlock("import { Client } from '@acme/sdk';\n\nconst client = new Client({ apiKey: process.env.ACME_KEY });\nawait client.projects.list();", { lang: 'ts', title: 'index.ts', lines: true, highlight: [3], focus: [3, 4] }),
    heading(3, 'long-scripts', 'Long scripts'),
    sampleCodeBlock(CLIENT, { lang: 'ts', expandable: true, lines: true }),
    sampleCodeBlock('const veryLongLine = "' + 'wrap '.repeat(40) + '";', { lang: 'ts', wrap: true }),
    codeGroup,
    heading(2, 'components', 'Components'),
    components,
    '<table><thead><tr><th>Option</th><th>Default</th></tr></thead><tbody><tr><td><code>retries</code></td><td>3</td></tr><tr><td><code>timeout</code></td><td>30 s</td></tr></tbody></table>',
  ].join('\n');
}

/** A sidebar of a mid-sized site (three groups, a dozen pages). */
export function sampleNav(): NavItem[] {
  const page = (title: string, path: string): NavItem => ({ kind: 'page', title, path });
  return [
    { kind: 'group', title: 'Get started', items: [page('Introduction', '/'), page('Quickstart', '/quickstart'), page('SDK guide', '/guides/sdk')] },
    { kind: 'group', title: 'Guides', items: [page('Configuration', '/guides/config'), page('Themes', '/guides/themes'), page('Custom domains', '/guides/domains'), page('Search', '/guides/search')] },
    { kind: 'group', title: 'Reference', items: [page('API', '/api'), page('CLI', '/cli'), { kind: 'group', title: 'Components', items: [page('Callouts', '/components/callouts'), page('Tabs', '/components/tabs')] }, page('Changelog', '/changelog')] },
  ];
}

/** A fully configured site (every key of spec 2.11 that renders). */
export function sampleSite(theme: ThemeName = 'larch', overrides: Partial<SiteConfig> = {}): SiteConfig {
  return {
    name: 'Acme Docs',
    theme,
    contentRoot: 'docs/',
    appearance: { default: 'system', strict: false },
    navbar: {
      links: [{ label: 'Blog', href: 'https://acme.example/blog' }, { label: 'Status', href: '/status' }],
      primaryCta: { label: 'Get started', href: 'https://app.acme.example', style: 'solid', external: true },
    },
    footer: {
      style: 'columns',
      logo: true,
      social: { github: 'https://github.com/acme', x: 'https://x.com/acme', discord: 'https://discord.gg/acme' },
      links: [
        { title: 'Product', items: [{ label: 'Pricing', href: '/pricing' }, { label: 'Changelog', href: '/changelog' }] },
        { title: 'Company', items: [{ label: 'About', href: 'https://acme.example/about' }] },
      ],
    },
    legal: { copyright: '© {year} Acme Inc.', privacyUrl: 'https://acme.example/privacy', termsUrl: 'https://acme.example/terms' },
    seo: { description: 'Acme developer documentation', indexing: 'default', keywords: ['acme', 'sdk'] },
    siteUrl: 'https://acme.docs.example',
    basePath: '',
    ...overrides,
  };
}

/** Asset URLs of the shape `buildClientAssets` returns, for rendering without a build. */
export function placeholderAssets(): ClientAssets {
  const css = {} as Record<ThemeName, string>;
  for (const t of ['cedar', 'obsidian', 'birch', 'oak', 'cypress', 'ember', 'larch', 'sage', 'slate', 'terminal'] as ThemeName[]) css[t] = `/_folio/theme-${t}-0000.css`;
  return { css, js: '/_folio/client-0000.js' };
}

/** A complete shell input for the SDK guide page of the sample site. */
export function samplePageInput(site: SiteConfig = sampleSite(), assets: ClientAssets = placeholderAssets()): PageShellInput {
  return {
    site,
    page: {
      path: '/guides/sdk',
      title: 'SDK guide',
      description: 'Install the SDK, authenticate and make your first call.',
      bodyHtml: sampleBodyHtml(),
      toc: [
        { depth: 2, id: 'install', text: 'Install' },
        { depth: 2, id: 'authenticate', text: 'Authenticate' },
        { depth: 3, id: 'long-scripts', text: 'Long scripts' },
        { depth: 2, id: 'components', text: 'Components' },
      ],
      rss: true,
      markdownPath: '/guides/sdk.md',
      feedPath: '/guides/sdk/rss.xml',
    },
    nav: sampleNav(),
    prev: { title: 'Quickstart', path: '/quickstart' },
    next: { title: 'Configuration', path: '/guides/config' },
    assets,
    searchBase: '/_pagefind/',
    year: 2025,
  };
}
