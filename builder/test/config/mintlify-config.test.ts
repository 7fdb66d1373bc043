import t, { type Test } from 'tap';
import { parseConfig } from '../../src/config/parse-config.ts';
import { BuilderError } from '../../src/errors.ts';

const location = { siteUrl: 'https://a.example', basePath: '' };
const parse = (config: unknown) => parseConfig(JSON.stringify(config), location);

function problems(t: Test, config: unknown): string[] {
  try {
    parse(config);
  } catch (error) {
    t.ok(error instanceof BuilderError);
    return (error as BuilderError).message.split('\n');
  }
  t.fail('expected the configuration to be rejected');
  return [];
}

t.test('Mintlify docs.json', async (t) => {
  t.test('should map Mintlify key names onto the canonical keys, with warnings for what is mapped or ignored', async (t) => {
    const c = parse({
      name: 'A', theme: 'linden', logo: '/logo.svg', favicon: { light: '/f.svg', dark: '/fd.svg' }, description: 'About A',
      navbar: { primary: { type: 'github', href: 'https://github.com/acme/x' } },
      footer: { socials: { twitter: 'https://x.com/a', 'hacker-news': 'https://news.ycombinator.com' } },
      background: { color: { light: '#ffffff', dark: '#000000' }, image: '/bg.png' },
      fonts: { family: 'Inter', heading: { family: 'Lora', source: 'https://fonts.example/lora.woff2' } },
      seo: { indexing: 'navigable' }, api: { openapi: ['a.yaml', 'b.yaml'] }, icons: { library: 'lucide' },
      banner: { content: 'Hi [there](/x)' }, contextual: { options: ['copy'] }, styling: { eyebrows: 'section' }, integrations: { ga4: {}, posthog: {} },
    });
    t.same(c, {
      name: 'A', theme: 'terminal', contentRoot: 'docs/', appearance: { default: 'system', strict: false },
      footer: { style: 'page', social: { x: 'https://x.com/a', hackernews: 'https://news.ycombinator.com' } },
      seo: { indexing: 'default', favicon: '/f.svg', description: 'About A' },
      assistantTrigger: 'button', siteUrl: 'https://a.example', basePath: '',
      navbar: { primaryCta: { label: 'GitHub', href: 'https://github.com/acme/x', style: 'solid', external: true } },
      openapi: 'a.yaml', iconLibrary: 'lucide', banner: { content: 'Hi [there](/x)', dismissible: false },
      colors: { logo: { light: '/logo.svg', dark: '/logo.svg', href: '/' } },
      background: { light: '#ffffff', dark: '#000000' },
      typography: { fontFamily: 'Inter', headingFont: 'Lora' },
      fontSources: [{ family: 'Lora', url: 'https://fonts.example/lora.woff2' }],
      warnings: [
        'docs.json: theme: "linden" is a Mintlify theme; using the nearest theme, "terminal"',
        'docs.json: background.image: ignored; not supported yet (background accepts light and dark colours or gradients)',
        'docs.json: contextual: ignored; every page has a Copy page action and a Markdown export',
        'docs.json: styling: ignored; not supported',
        'docs.json: integrations.ga4: ignored; third-party integrations are not supported; analytics are built in',
        'docs.json: integrations.posthog: ignored; third-party integrations are not supported; analytics are built in',
        'docs.json: api.openapi: only the first document (a.yaml) is read',
      ],
    });
  });

  t.test('should accept appearance.layout, which Mintlify sites still carry, with a warning', async (t) => {
    const c = parse({ name: 'A', appearance: { default: 'dark', strict: false, layout: 'sidenav' } });
    t.same(c.appearance, { default: 'dark', strict: false });
    t.same(c.warnings, ['docs.json: appearance.layout: ignored; the theme sets the layout']);
  });

  t.test('should map every Mintlify theme to the nearest theme and still reject unknown ones', async (t) => {
    const themes = ['mint', 'maple', 'palm', 'willow', 'linden', 'almond', 'aspen', 'luma', 'sequoia'].map((theme) => parse({ name: 'A', theme }).theme);
    t.same(themes, ['larch', 'larch', 'cypress', 'sage', 'terminal', 'birch', 'obsidian', 'slate', 'oak']);
    t.same(parse({ name: 'A', theme: 'mint' }).warnings, ['docs.json: theme: "mint" is a Mintlify theme; using the nearest theme, "larch"']);
    t.same(problems(t, { name: 'A', theme: 'blue' }), ['docs.json: theme: Unexpected "blue"; expected one of cedar, obsidian, birch, oak, cypress, ember, larch, sage, slate, terminal']);
  });

  t.test('should keep the canonical key when both names are given, with a warning', async (t) => {
    const c = parse({ name: 'A', logo: '/m.svg', colors: { logo: { light: '/c.svg' } }, footer: { social: { x: 'https://x.com/c' }, socials: { x: 'https://x.com/m' } } });
    t.same(c.colors?.logo, { light: '/c.svg', href: '/' });
    t.same(c.footer?.social, { x: 'https://x.com/c' });
    t.same(c.warnings, ['docs.json: logo: ignored because colors.logo is set; remove one of them', 'docs.json: footer.socials: ignored because footer.social is set; remove one of them']);
  });

  t.test('should read footer columns with a header and turn the footer on as Mintlify shows it', async (t) => {
    const c = parse({ name: 'A', footer: { links: [{ header: 'Company', items: [{ label: 'Blog', href: '/blog' }] }] } });
    t.same(c.footer, { style: 'columns', links: [{ title: 'Company', items: [{ label: 'Blog', href: '/blog' }] }] });
  });

  t.test('should reject wrong Mintlify keys with one line each', async (t) => {
    t.same(problems(t, {
      name: 'A', navbar: { primary: { type: 'link', href: 'x' } }, logo: 5, favicon: { dark: '/x.svg' },
      footer: { links: [{ items: [] }], socials: { x: 'not a url' } }, icons: { library: 'material' }, banner: { text: 'x' },
    }), [
      'docs.json: navbar.primary.type: Unexpected object; expected { "type": "button", "label", "href" }, { "type": "github", "href" } or { "type": "discord", "href" }',
      'docs.json: footer.socials.x: Unexpected "not a url"; expected a URL',
      'docs.json: footer.links[0].title: Required',
      'docs.json: logo: Unexpected 5; expected a path such as /logo/light.svg or { "light", "dark", "href" }',
      'docs.json: favicon.light: Required',
      'docs.json: icons.library: Unexpected "material"; expected one of fontawesome, lucide, tabler',
      'docs.json: banner.content: Required',
      'docs.json: banner.text: Unexpected key; banner accepts content, dismissible, type, color',
    ]);
  });

  t.test('should parse the object form of navigation into one tree, children in a fixed order', async (t) => {
    const c = parse({
      name: 'A',
      navigation: {
        global: { anchors: [{ anchor: 'Status', href: 'https://status.example', icon: { name: 'signal' } }] },
        pages: ['top'],
        languages: [
          { language: 'en', default: true, tabs: [{ tab: 'Guides', icon: 'book', groups: [{ group: 'Start', icon: 'rocket', expanded: true, root: 'start', tag: 'NEW', pages: ['a', { group: 'Deep', pages: ['b'] }] }] }, { tab: 'Blog', href: 'https://blog.example' }] },
          { language: 'pt-BR', versions: [{ version: 'v2', tag: 'beta', pages: ['pt/a'] }] },
        ],
      },
    });
    t.same(c.navigation, [
      {
        division: 'language', name: 'en', default: true, paths: [['tabs', 0], ['tabs', 1]], items: [
          { division: 'tab', name: 'Guides', icon: 'book', paths: [['groups', 0]], items: [
            { group: 'Start', icon: 'rocket', expanded: true, root: 'start', tag: 'NEW', pages: ['a', { group: 'Deep', pages: ['b'] }] },
          ] },
          { division: 'tab', name: 'Blog', href: 'https://blog.example', paths: [], items: [] },
        ],
      },
      { division: 'language', name: 'pt-BR', paths: [['versions', 0]], items: [{ division: 'version', name: 'v2', tag: 'beta', paths: [['pages', 0]], items: ['pt/a'] }] },
      'top',
    ]);
    t.same(c.navigationPaths, [['languages', 0], ['languages', 1], ['pages', 0]]);
    t.same(c.globalLinks, [{ kind: 'anchor', label: 'Status', href: 'https://status.example', icon: 'signal' }]);
    t.same(c.navbar?.links, [{ label: 'Status', href: 'https://status.example' }]);
  });

  t.test('should reject malformed object navigation with exact paths', async (t) => {
    t.same(problems(t, {
      name: 'A',
      navigation: {
        tabs: [{ tab: 'X' }, { tab: 'Y', groups: [{ group: 'G', pages: ['a', 3] }], colour: 1 }],
        languages: [{ language: 'english', pages: ['a'] }], global: { anchors: [{ anchor: 'S' }] }, foo: 1,
      },
    }), [
      'docs.json: navigation.global.anchors[0].href: Required',
      'docs.json: navigation.languages[0].language: Unexpected "english"; expected a language code such as en, fr or pt-BR',
      'docs.json: navigation.tabs[1].groups[0].pages[1]: Unexpected 3; expected a page path or a group { "group", "pages" }',
      'docs.json: navigation.tabs[1].colour: Unexpected key; navigation.tabs[1] accepts tab, icon, href, default, tag, hidden, description, color, public, openapi, asyncapi, searchable, directory, iconType, align, global, graphql, sdk, languages, versions, products, dropdowns, tabs, menu, anchors, groups, pages',
      'docs.json: navigation.foo: Unexpected key; navigation accepts global, directory, graphql, sdk, languages, versions, products, dropdowns, tabs, menu, anchors, groups, pages',
    ]);
    t.same(problems(t, { name: 'A', navigation: 5 }), ['docs.json: navigation: Unexpected 5; expected an array of pages and groups, or an object of tabs, anchors, languages, versions, groups or pages']);
  });

  t.test('should accept languages and versions without pages, and check their folders', async (t) => {
    const c = parseConfig(JSON.stringify({
      name: 'A',
      navigation: { languages: [{ language: 'en' }, { language: 'fr', prefix: 'francais' }], versions: [{ version: 'v2', pages: ['a'] }, { version: '1.0 (old)' }] },
    }), location);
    t.same(c.navigation, [
      { division: 'language', name: 'en', paths: [], items: [] },
      { division: 'language', name: 'fr', prefix: 'francais', paths: [], items: [] },
      { division: 'version', name: 'v2', paths: [['pages', 0]], items: ['a'] },
      { division: 'version', name: '1.0 (old)', paths: [], items: [] },
    ]);
    t.same(problems(t, {
      name: 'A',
      navigation: {
        languages: [{ language: 'en' }, { language: 'fr', prefix: 'v2' }],
        versions: [{ version: 'v3', pages: ['a'] }, { version: 'v2' }, { version: 'v1', prefix: '../x' }],
        tabs: [{ tab: 'T', prefix: 't', pages: ['a'] }],
      },
    }), [
      'docs.json: navigation.versions[2].prefix: Unexpected "../x"; expected one folder name such as v2 or fr (letters, digits, ".", "_", "-")',
      'docs.json: navigation.tabs[0].prefix: Unexpected key; navigation.tabs[0] accepts tab, icon, href, default, tag, hidden, description, color, public, openapi, asyncapi, searchable, directory, iconType, align, global, graphql, sdk, languages, versions, products, dropdowns, tabs, menu, anchors, groups, pages',
    ]);
    t.same(problems(t, {
      name: 'A',
      navigation: { languages: [{ language: 'en' }, { language: 'fr', prefix: 'v2' }], versions: [{ version: 'v3', pages: ['a'] }, { version: 'v2' }] },
    }), ['docs.json: navigation.versions: Unexpected prefix "v2" of v2, already the folder of fr; expected one folder per language and version (set "prefix")']);
  });
});
