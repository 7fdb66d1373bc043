import t from 'tap';
import { build } from '../../src/build.ts';
import { closePagefind } from '../../src/outputs/pagefind-shard.ts';
import { createCompiler } from '../../src/sandbox/index.ts';
import { createLocalDirStore } from '../../src/store/local-dir-store.ts';
import { tempDir, writeFiles } from '../helpers/git-repo.ts';

t.teardown(closePagefind);

t.test('a repository\'s .css and .js files, as Mintlify includes them, are named in one warning each', async (t) => {
  const compiler = await createCompiler();
  t.teardown(() => compiler.close());
  const dir = tempDir();
  writeFiles(dir, {
    'docs.json': JSON.stringify({ name: 'Code', navigation: { pages: ['index'] } }),
    'index.mdx': '# Home\n',
    'style.css': '.a { color: red }\n', 'fonts.css': '.b { color: blue }\n', 'extra/playground.css': '.c {}\n',
    'kapa-widget.js': 'console.log(1)\n', 'footer.js': 'console.log(2)\n',
    // A snippet's module and a published file are not site scripts.
    'snippets/card.js': 'export const Card = () => null;\n', 'public/app.js': 'x\n',
  });
  const custom = (customCss: boolean) => build({ source: { kind: 'dir', dir }, store: createLocalDirStore(tempDir()), siteUrl: 'https://code.example', compiler, year: 2026, customCss });
  const without = await custom(false);
  t.same(without.warnings, [
    'Custom JavaScript: footer.js and kapa-widget.js not run; scripts from the repository do not run on the site\'s pages',
    'Custom CSS: style.css, extra/playground.css and 1 more not applied; custom CSS needs the Pro plan',
  ]);
  const withCss = await custom(true);
  t.same(withCss.warnings, ['Custom JavaScript: footer.js and kapa-widget.js not run; scripts from the repository do not run on the site\'s pages']);
});
