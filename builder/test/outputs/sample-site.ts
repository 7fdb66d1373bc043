/** A small site shared by the output tests: three pages, updates, awkward characters. */
import type { NavItem, SiteConfig } from '@folio/site-template/shared/types.ts';
import type { CompiledPage } from '../../src/types.ts';

export const site: SiteConfig = {
  name: 'Acme & Co',
  theme: 'larch',
  contentRoot: 'docs/',
  appearance: { default: 'system', strict: false },
  footer: { style: 'none' },
  seo: { indexing: 'default', description: 'Docs for <Acme>' },
  redirects: [
    { source: '/old', destination: '/guides/install', permanent: true },
    { source: '/blog', destination: 'https://acme.dev/blog', permanent: false },
  ],
  assistantTrigger: 'button',
  siteUrl: 'https://acme.docs.example',
  basePath: '/docs',
};

const base = { frontmatter: {}, bodyHtml: '', toc: [], updates: [], rss: false, searchText: '' };

export const pages: CompiledPage[] = [
  {
    ...base,
    sourcePath: 'docs/guides/install.mdx', urlPath: '/guides/install', title: 'Install [beta]', description: 'Get Acme\nrunning',
    markdown: '# Install [beta]\n\nGet Acme running.\n\n```sh\nnpm i acme\n```\n\n',
    bodyHtml: '<p>Get Acme running.</p>', searchText: 'Get Acme running.',
  },
  {
    ...base,
    sourcePath: 'docs/index.mdx', urlPath: '/', title: 'Welcome',
    markdown: '# Welcome\n\nHello.\n', bodyHtml: '<p>Hello.</p>', searchText: 'Hello.',
  },
  {
    ...base,
    sourcePath: 'docs/changelog.mdx', urlPath: '/changelog', title: 'Changelog', description: 'What changed', rss: true,
    seo: { indexing: 'noindex' },
    markdown: '# Changelog\n\nWhat changed\n\n## v2\n\nFaster.\n',
    updates: [
      { id: 'v1', label: 'v1', description: 'First release', date: '2024-01-02', html: '<p>First release</p>' },
      { id: 'v2', label: 'v2 "fast"', description: 'Faster & smaller', date: '2024-03-04', html: '<p>Faster ]]> &amp; smaller</p>' },
      { id: 'next', label: 'Next', description: 'Soon', html: '<p>Soon</p>' },
    ],
    bodyHtml: '<h2>v2</h2><p>Faster.</p>', searchText: 'v2 Faster.',
  },
];

export const nav: NavItem[] = [
  { kind: 'page', title: 'Welcome', path: '/' },
  { kind: 'group', title: 'Guides', items: [{ kind: 'page', title: 'Install', path: '/guides/install' }] },
];
