import t from 'tap';
import { render404, renderPage } from '@folio/site-template';
import { placeholderAssets } from '@folio/site-template/node/sample-site.tsx';
import { notFoundShell, pageShellInput, pageShells, type ShellContext } from '../../src/outputs/page-shells.ts';
import { nav, pages, site } from './sample-site.ts';

const ctx: ShellContext = { site, nav, assets: placeholderAssets(), searchBase: '/_pagefind/1-0/', year: 2025 };

t.test('pageShells', async (t) => {
  t.test('should pass the template each page with its export paths and neighbours', async (t) => {
    t.same(pageShellInput(pages[0], ctx, { prev: { title: 'Welcome', path: '/' } }), {
      site, nav, assets: ctx.assets, searchBase: '/_pagefind/1-0/', year: 2025,
      page: {
        path: '/guides/install', title: 'Install [beta]', description: 'Get Acme\nrunning', bodyHtml: '<p>Get Acme running.</p>', toc: [], rss: false,
        seo: undefined, markdownPath: '/guides/install.md', feedPath: '/guides/install/rss.xml',
      },
      prev: { title: 'Welcome', path: '/' },
    });
    t.equal(pageShellInput(pages[1], ctx).page.feedPath, '/index/rss.xml');
  });

  t.test('should write each shell at its clean URL, rendered by the template', async (t) => {
    const files = pageShells(pages, ctx);
    t.same([...files.keys()], ['guides/install/index.html', 'index.html', 'changelog/index.html']);
    t.equal(files.get('index.html'), renderPage(pageShellInput(pages[1], ctx, { next: { title: 'Install', path: '/guides/install' } })));
    t.equal(files.get('changelog/index.html'), renderPage(pageShellInput(pages[2], ctx)));
    t.match(files.get('guides/install/index.html'), '<meta name="folio-search" content="/docs/_pagefind/1-0/"');
  });

  t.test('should render the not-found page with the site shell', async (t) => {
    t.equal(notFoundShell(ctx), render404({ site, nav, assets: ctx.assets, searchBase: ctx.searchBase, year: 2025 }));
  });
});
