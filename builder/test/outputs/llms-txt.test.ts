import t from 'tap';
import { llmsFullTxt, llmsTxt } from '../../src/outputs/llms-txt.ts';
import { nav, pages, site } from './sample-site.ts';

t.test('llmsTxt', async (t) => {
  t.test('should list every page in reading order with its Markdown URL and description', async (t) => {
    t.equal(
      llmsTxt(pages, site, nav),
      '# Acme & Co\n\n'
        + '> Docs for <Acme>\n\n'
        + '## Docs\n\n'
        + '- [Welcome](https://acme.docs.example/docs/index.md)\n'
        + '- [Install \\[beta\\]](https://acme.docs.example/docs/guides/install.md): Get Acme running\n'
        + '- [Changelog](https://acme.docs.example/docs/changelog.md): What changed\n',
    );
  });

  t.test('should leave out the description quote when the site has none', async (t) => {
    t.equal(llmsTxt([pages[1]], { ...site, seo: { indexing: 'default' }, basePath: '' }), '# Acme & Co\n\n## Docs\n\n- [Welcome](https://acme.docs.example/index.md)\n');
  });

  t.test('should concatenate every page in llms-full.txt with its source URL', async (t) => {
    t.equal(
      llmsFullTxt(pages, site, nav),
      '# Acme & Co\n\n> Docs for <Acme>\n\n'
        + '---\n\nSource: https://acme.docs.example/docs/\n\n# Welcome\n\nHello.\n'
        + '\n---\n\nSource: https://acme.docs.example/docs/guides/install\n\n# Install [beta]\n\nGet Acme running.\n\n```sh\nnpm i acme\n```\n'
        + '\n---\n\nSource: https://acme.docs.example/docs/changelog\n\n# Changelog\n\nWhat changed\n\n## v2\n\nFaster.\n',
    );
  });
});
