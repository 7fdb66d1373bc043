/**
 * A site with two versions and two languages, most pages written once: versions v3 (default,
 * holding the navigation) and v2 (its own install page); English (default) and French (its own
 * home page). Every other combination falls back.
 */
const page = (title: string, body = `Text of ${title}.`) => `---\ntitle: ${title}\n---\n\n${body}\n`;

/** The repository's files. */
export const VERSIONED_SITE = {
  'docs.json': JSON.stringify({
    name: 'Acme',
    navigation: {
      languages: [{ language: 'en', default: true }, { language: 'fr' }],
      versions: [
        { version: 'v3', default: true, groups: [{ group: 'Guides', pages: ['index', 'guides/install', 'guides/auth'] }] },
        { version: 'v2' },
      ],
    },
  }),
  'docs/index.mdx': page('Home'),
  'docs/guides/install.mdx': page('Install', 'Run the zephyr installer.'),
  'docs/guides/auth.mdx': page('Auth'),
  'docs/v2/guides/install.mdx': page('Install v2', 'Run the zephyr installer of version two.'),
  'docs/fr/index.mdx': page('Accueil'),
};

