import t, { type Test } from 'tap';
import { BuilderError } from '../../src/errors.ts';
import { parseConfig } from '../../src/config/parse-config.ts';

const location = { siteUrl: 'https://acme.docs.example/', basePath: '/docs/' };

/** The message lines of the `invalid_config` error that parsing `config` throws. */
function problems(t: Test, config: unknown): string[] {
  try {
    parseConfig(typeof config === 'string' ? config : JSON.stringify(config), location);
  } catch (error) {
    t.ok(error instanceof BuilderError, 'throws a BuilderError');
    const e = error as BuilderError;
    t.same({ kind: e.kind, code: e.code }, { kind: 'user', code: 'invalid_config' });
    return e.message.split('\n');
  }
  t.fail('expected the configuration to be rejected');
  return [];
}

const minimal = {
  name: 'Acme',
  theme: 'larch',
  contentRoot: 'docs/',
  appearance: { default: 'system', strict: false },
  footer: { style: 'none' },
  seo: { indexing: 'default' },
  assistantTrigger: 'button',
  siteUrl: 'https://acme.docs.example',
  basePath: '/docs',
  warnings: [],
};

t.test('parseConfig', async (t) => {
  t.test('should apply every default to a file holding only the name', async (t) => {
    t.same(parseConfig('{ "name": "Acme" }', location), minimal);
  });

  t.test('should keep every valid key with its value', async (t) => {
    const config = parseConfig(
      JSON.stringify({
        $schema: 'https://folio.dev/docs.schema.json',
        name: 'Acme',
        theme: 'obsidian',
        contentRoot: 'content/docs/',
        appearance: { default: 'dark', strict: true },
        colors: { primary: '#0A84FF', light: '#66b2ff', dark: '#004c99', logo: { light: '/logo/light.svg', dark: 'https://cdn.acme.dev/dark.svg' } },
        background: { light: 'repeating-linear-gradient(45deg, #fff, #eee 10px)', dark: '#101010' },
        typography: { fontFamily: 'Inter, sans-serif', headingFont: 'Lora', bodyFont: 'Inter' },
        navbar: {
          links: [{ label: 'Blog', href: 'https://acme.dev/blog' }],
          primaryCta: { label: 'Sign up', href: 'https://acme.dev/signup', style: 'outline', color: 'rgb(0 0 0)', textColor: 'white' },
          controls: { appearance: 'header', language: 'sidebar', version: 'auto', product: 'header', assistant: 'sidebar', order: ['assistant', 'appearance'] },
        },
        legal: { copyright: '© {year} Acme', privacyUrl: '/privacy', termsUrl: 'https://acme.dev/terms', cookieUrl: '/cookies', links: [{ label: 'Imprint', href: '/imprint' }] },
        footer: {
          style: 'columns',
          logo: true,
          social: { github: 'https://github.com/acme', mastodon: 'https://m.social/@acme' },
          links: [{ title: 'Product', items: [{ label: 'Pricing', href: '/pricing' }] }],
          width: 'full',
        },
        seo: {
          title: 'Acme Docs', description: 'All about Acme', keywords: ['acme', 'docs'], author: 'Acme Inc.', ogImage: '/og.png',
          favicon: '/favicon.svg', indexing: 'noindex', metatags: { 'google-site-verification': 'abc' },
        },
        geo: { entity: { type: 'Organization' } },
        redirects: [{ source: '/old', destination: '/new', permanent: true }, { source: '/tmp', destination: 'https://acme.dev' }],
        api: { openapi: 'openapi.yaml' },
        interaction: { drilldown: { enabled: true } },
        ai: { assistant: { trigger: 'none' } },
        navigation: ['index', { group: 'Guides', pages: ['guides/install', { group: 'Deep', pages: ['guides/deep/a'] }] }],
        unknownTopLevel: 1,
      }),
      location,
    );
    t.same(config, {
      warnings: [],
      navigationPaths: [[0], [1]],
      name: 'Acme',
      theme: 'obsidian',
      contentRoot: 'content/docs/',
      appearance: { default: 'dark', strict: true },
      footer: {
        style: 'columns',
        logo: true,
        social: { github: 'https://github.com/acme', mastodon: 'https://m.social/@acme' },
        links: [{ title: 'Product', items: [{ label: 'Pricing', href: '/pricing' }] }],
        width: 'full',
      },
      seo: {
        title: 'Acme Docs', description: 'All about Acme', keywords: ['acme', 'docs'], author: 'Acme Inc.', ogImage: '/og.png',
        favicon: '/favicon.svg', indexing: 'noindex', metatags: { 'google-site-verification': 'abc' },
      },
      assistantTrigger: 'none',
      siteUrl: 'https://acme.docs.example',
      basePath: '/docs',
      colors: { primary: '#0A84FF', light: '#66b2ff', dark: '#004c99', logo: { light: '/logo/light.svg', dark: 'https://cdn.acme.dev/dark.svg', href: '/' } },
      background: { light: 'repeating-linear-gradient(45deg, #fff, #eee 10px)', dark: '#101010' },
      typography: { fontFamily: 'Inter, sans-serif', headingFont: 'Lora', bodyFont: 'Inter' },
      navbar: {
        links: [{ label: 'Blog', href: 'https://acme.dev/blog' }],
        primaryCta: { label: 'Sign up', href: 'https://acme.dev/signup', style: 'outline', color: 'rgb(0 0 0)', textColor: 'white', external: true },
        controls: { appearance: 'header', language: 'sidebar', version: 'auto', product: 'header', assistant: 'sidebar', order: ['assistant', 'appearance'] },
      },
      legal: { copyright: '© {year} Acme', privacyUrl: '/privacy', termsUrl: 'https://acme.dev/terms', cookieUrl: '/cookies', links: [{ label: 'Imprint', href: '/imprint' }] },
      redirects: [{ source: '/old', destination: '/new', permanent: true }, { source: '/tmp', destination: 'https://acme.dev', permanent: false }],
      navigation: ['index', { group: 'Guides', pages: ['guides/install', { group: 'Deep', pages: ['guides/deep/a'] }] }],
      geo: { entity: { type: 'Organization' } },
      openapi: 'openapi.yaml',
      drilldown: { enabled: true },
    });
  });

  t.test('should resolve every deprecated theme alias to its canonical theme', async (t) => {
    const resolved = ['maple', 'classic', 'modern', 'minimal'].map((theme) => parseConfig(JSON.stringify({ name: 'A', theme }), location).theme);
    t.same(resolved, ['larch', 'cedar', 'ember', 'sage']);
  });

  t.test('should default the call-to-action style and external flag from its target', async (t) => {
    const cta = (href: string, external?: boolean) =>
      parseConfig(JSON.stringify({ name: 'A', navbar: { primaryCta: { label: 'Go', href, external } } }), location).navbar?.primaryCta;
    t.same(cta('https://acme.dev'), { label: 'Go', href: 'https://acme.dev', style: 'solid', external: true });
    t.same(cta('/start'), { label: 'Go', href: '/start', style: 'solid', external: false });
    t.same(cta('/start', true), { label: 'Go', href: '/start', style: 'solid', external: true });
  });

  t.test('should normalise a ./ prefix of contentRoot and read ./ as the repository root', async (t) => {
    t.equal(parseConfig('{"name":"A","contentRoot":"./guides/"}', location).contentRoot, 'guides/');
    t.equal(parseConfig('{"name":"A","contentRoot":"./"}', location).contentRoot, '');
  });

  t.test('should report invalid JSON with line and column', async (t) => {
    t.same(problems(t, '{\n  "name": "A",\n  "theme": }'), ['docs.json:3:12: Unexpected token "}"; expected a value']);
    t.same(problems(t, '{ "name": "A" '), ['docs.json:1:15: Unexpected end of file; expected , or }']);
  });

  t.test('should reject nesting past 64 levels instead of overflowing the stack', async (t) => {
    let group = '"guides/install"';
    for (let i = 0; i < 5000; i++) group = `{ "group": "G", "pages": [${group}] }`;
    t.same(problems(t, `{ "name": "A", "navigation": [${group}] }`), ['docs.json: Unexpected nesting deeper than 64 levels; expected a flatter file']);
    t.same(problems(t, `{ "name": "A", "geo": ${'['.repeat(65)}${']'.repeat(65)} }`), ['docs.json: Unexpected nesting deeper than 64 levels; expected a flatter file']);
  });

  t.test('should report a list key given another type, not crash on it', async (t) => {
    for (const value of [null, { k: null }, 'x', 3]) {
      const lines = problems(t, { name: 'A', redirects: value });
      t.equal(lines.length, 1);
      t.match(lines[0], /^docs\.json: redirects: Unexpected /);
    }
    t.match(problems(t, { name: 'A', navbar: { controls: { order: { a: 1 } } } })[0], /^docs\.json: navbar\.controls\.order: Unexpected /);
  });

  t.test('should reject a file that is not an object', async (t) => {
    t.same(problems(t, '[]'), ['docs.json: Unexpected array; expected object']);
  });

  t.test('should name a missing or empty name', async (t) => {
    t.same(problems(t, {}), ['docs.json: name: Required']);
    t.same(problems(t, { name: '' }), ['docs.json: name: Unexpected ""; expected a non-empty string']);
    t.same(problems(t, { name: 5 }), ['docs.json: name: Unexpected 5; expected string']);
  });

  t.test('should reject $schema that is not a URL', async (t) => {
    t.same(problems(t, { name: 'A', $schema: 'docs.schema' }), ['docs.json: $schema: Unexpected "docs.schema"; expected a URL']);
  });

  t.test('should list the canonical themes when the theme is unknown', async (t) => {
    t.same(problems(t, { name: 'A', theme: 'blue' }), [
      'docs.json: theme: Unexpected "blue"; expected one of cedar, obsidian, birch, oak, cypress, ember, larch, sage, slate, terminal',
    ]);
  });

  t.test('should require contentRoot to be a relative folder path ending with /', async (t) => {
    t.same(problems(t, { name: 'A', contentRoot: 'docs' }), ['docs.json: contentRoot: Unexpected "docs"; expected a folder path ending with /']);
    t.same(problems(t, { name: 'A', contentRoot: '../other/' }), [
      'docs.json: contentRoot: Unexpected "../other/"; expected a relative path inside the repository, without ..',
    ]);
    t.same(problems(t, { name: 'A', contentRoot: '/srv/docs/' }), [
      'docs.json: contentRoot: Unexpected "/srv/docs/"; expected a relative path inside the repository, without ..',
    ]);
  });

  t.test('should reject unknown appearance keys and values', async (t) => {
    t.same(problems(t, { name: 'A', appearance: { mode: 'dark', default: 'dim', strict: 'yes' } }), [
      'docs.json: appearance.default: Unexpected "dim"; expected one of light, dark, system',
      'docs.json: appearance.strict: Unexpected "yes"; expected boolean',
      'docs.json: appearance.mode: Unexpected key; appearance accepts default, strict, layout',
    ]);
  });

  t.test('should require six-digit hex colours and valid logo references', async (t) => {
    t.same(problems(t, { name: 'A', colors: { primary: '#12345', light: 'blue', dark: '#12345g', logo: { light: 'logo.svg', dark: '/../x.svg', href: '' } } }), [
      'docs.json: colors.primary: Unexpected "#12345"; expected # followed by six (or three) hex digits',
      'docs.json: colors.light: Unexpected "blue"; expected # followed by six (or three) hex digits',
      'docs.json: colors.dark: Unexpected "#12345g"; expected # followed by six (or three) hex digits',
      'docs.json: colors.logo.light: Unexpected "logo.svg"; expected a root-relative path such as /images/logo.svg, or an absolute http(s) URL',
      'docs.json: colors.logo.dark: Unexpected "/../x.svg"; expected a root-relative path such as /images/logo.svg, or an absolute http(s) URL',
      'docs.json: colors.logo.href: Unexpected ""; expected a non-empty string',
    ]);
  });

  t.test('should accept hex and CSS gradients as backgrounds and nothing else', async (t) => {
    for (const value of ['#ffffff', 'linear-gradient(red, blue)', 'radial-gradient(circle, #fff 0%, #000 100%)', 'conic-gradient(red, blue)', 'repeating-radial-gradient(red, blue 10%)']) {
      t.equal(parseConfig(JSON.stringify({ name: 'A', background: { light: value } }), location).background?.light, value);
    }
    t.same(problems(t, { name: 'A', background: { dark: 'url(x.png)' } }), [
      'docs.json: background.dark: Unexpected "url(x.png)"; expected # followed by six (or three) hex digits, or a CSS gradient such as linear-gradient(…)',
    ]);
  });

  t.test('should reject unknown typography keys', async (t) => {
    t.same(problems(t, { name: 'A', typography: { font: 'Inter', headingFont: 3 } }), [
      'docs.json: typography.headingFont: Unexpected 3; expected string',
      'docs.json: typography.font: Unexpected key; typography accepts fontFamily, headingFont, bodyFont',
    ]);
  });

  t.test('should validate navbar links, call to action and controls', async (t) => {
    t.same(
      problems(t, {
        name: 'A',
        navbar: {
          links: [{ label: 'a' }, { label: 'b', href: '/b', target: '_blank' }, 'c'],
          primaryCta: { href: '/x', style: 'fancy', external: 'no' },
          controls: { appearance: 'top', order: ['version', 'search', 'version'], extra: 1 },
        },
      }),
      [
        'docs.json: navbar.links[0].href: Required',
        'docs.json: navbar.links[1].target: Unexpected key; navbar.links[1] accepts label, href, type, icon, iconType',
        'docs.json: navbar.links[2]: Unexpected "c"; expected object',
        'docs.json: navbar.primaryCta.label: Required',
        'docs.json: navbar.primaryCta.style: Unexpected "fancy"; expected one of solid, outline, ghost',
        'docs.json: navbar.primaryCta.external: Unexpected "no"; expected boolean',
        'docs.json: navbar.controls.appearance: Unexpected "top"; expected one of auto, header, sidebar',
        'docs.json: navbar.controls.order[1]: Unexpected "search"; expected one of appearance, language, version, product, assistant',
        'docs.json: navbar.controls.order[2]: Unexpected "version"; expected each control at most once',
        'docs.json: navbar.controls.extra: Unexpected key; navbar.controls accepts appearance, language, version, product, assistant, order',
      ],
    );
    t.same(problems(t, { name: 'A', navbar: { controls: { order: ['version', 'product', 'version'] } } }), [
      'docs.json: navbar.controls.order[2]: Unexpected "version"; expected each control at most once',
    ]);
  });

  t.test('should reject unknown legal keys', async (t) => {
    t.same(problems(t, { name: 'A', legal: { imprint: '/i', links: [{ label: 'x', href: '' }] } }), [
      'docs.json: legal.links[0].href: Unexpected ""; expected a non-empty string',
      'docs.json: legal.imprint: Unexpected key; legal accepts copyright, privacyUrl, termsUrl, cookieUrl, links',
    ]);
  });

  t.test('should validate the footer', async (t) => {
    t.same(
      problems(t, { name: 'A', footer: { style: 'grid', logo: 'yes', social: { github: 'nope', mastodon: 'also nope' }, links: [{ items: [] }], width: 'wide' } }),
      [
        'docs.json: footer.style: Unexpected "grid"; expected one of none, page, columns',
        'docs.json: footer.logo: Unexpected "yes"; expected boolean',
        'docs.json: footer.social.github: Unexpected "nope"; expected a URL',
        'docs.json: footer.social.mastodon: Unexpected "also nope"; expected a URL',
        'docs.json: footer.links[0].title: Required',
        'docs.json: footer.width: Unexpected "wide"; expected one of reading, content, full',
      ],
    );
  });

  t.test('should validate seo and reject unknown seo keys', async (t) => {
    t.same(
      problems(t, { name: 'A', seo: { keywords: 'docs', ogImage: 'og.png', favicon: 'favicon.ico', indexing: 'none', metatags: { robots: 1 }, canonical: 'x' } }),
      [
        'docs.json: seo.keywords: Unexpected "docs"; expected array',
        'docs.json: seo.ogImage: Unexpected "og.png"; expected a root-relative path such as /images/logo.svg, or an absolute http(s) URL',
        'docs.json: seo.favicon: Unexpected "favicon.ico"; expected a root-relative path such as /images/logo.svg, or an absolute http(s) URL',
        'docs.json: seo.indexing: Unexpected "none"; expected one of default, noindex, navigable, all',
        'docs.json: seo.metatags.robots: Unexpected 1; expected string',
        'docs.json: seo.canonical: Unexpected key; seo accepts title, description, keywords, author, ogImage, favicon, indexing, metatags, paths, organization',
      ],
    );
  });

  t.test('should require geo to be an object', async (t) => {
    t.same(problems(t, { name: 'A', geo: 'yes' }), ['docs.json: geo: Unexpected "yes"; expected object']);
  });

  t.test('should validate redirects and reject a repeated source', async (t) => {
    t.same(
      problems(t, { name: 'A', redirects: [{ source: 'https://old.example/a', destination: '/new' }, { source: '/a', permanent: 'yes' }, { source: '/x', destination: '/y' }, { source: '/x', destination: '/z' }] }),
      [
        'docs.json: redirects[0].source: Unexpected "https://old.example/a"; expected a path of this site such as /old-page',
        'docs.json: redirects[1].destination: Required',
        'docs.json: redirects[1].permanent: Unexpected "yes"; expected boolean',
        'docs.json: redirects[3].source: Unexpected "/x"; expected each source at most once',
      ],
    );
  });

  t.test('should validate api, interaction and the assistant trigger', async (t) => {
    t.same(problems(t, { name: 'A', api: { openapi: 1 }, interaction: [], ai: { assistant: { trigger: 'chat' } } }), [
      'docs.json: api.openapi: Unexpected 1; expected a path or URL of an OpenAPI document',
      'docs.json: interaction: Unexpected array; expected object',
      'docs.json: ai.assistant.trigger: Unexpected "chat"; expected one of button, none',
    ]);
  });

  t.test('should validate navigation entries, nested groups included', async (t) => {
    t.same(
      problems(t, { name: 'A', navigation: ['a', { group: 'G', pages: ['b', 5, { group: 'H', pages: 'c' }] }, 'two words', 'x.mdx', 'a/../b', { group: 'X', pages: [], page: 1 }] }),
      [
        'docs.json: navigation[1].pages[1]: Unexpected 5; expected a page path or a group { "group", "pages" }',
        'docs.json: navigation[1].pages[2].pages: Unexpected "c"; expected array',
        'docs.json: navigation[2]: Unexpected "two words"; expected a page path relative to contentRoot, without extension, such as guides/install, or an API operation such as GET /users',
        'docs.json: navigation[3]: Unexpected "x.mdx"; expected a page path relative to contentRoot, without extension, such as guides/install, or an API operation such as GET /users',
        'docs.json: navigation[4]: Unexpected "a/../b"; expected a page path relative to contentRoot, without extension, such as guides/install, or an API operation such as GET /users',
        'docs.json: navigation[5].page: Unexpected key; navigation[5] accepts group, pages, icon, expanded, isDefaultOpen, root, tag, hidden, boost, searchable, directory, public, groups, openapi, asyncapi, graphql, sdk',
      ],
    );
  });
});
