import t from 'tap';
import { startTestPlatform } from '../helpers/platform.ts';

/** A monorepo written for Mintlify: docs.json in docs/, no index page, pattern redirects, a skill file. */
const MONOREPO = {
  'README.md': '# The product\n',
  'src/app.ts': 'export {};\n',
  'docs/docs.json': JSON.stringify({
    name: 'Mono',
    navigation: { groups: [{ group: 'Guides', pages: ['guides/index', 'guides/setup'] }] },
    redirects: [{ source: '/beta/:slug*', destination: '/guides/:slug*' }, { source: '/post/:id', destination: 'https://blog.example/p/:id' }],
  }),
  'docs/guides/index.mdx': '---\ntitle: Guides\n---\n\nThe guides start here.\n',
  'docs/guides/setup.mdx': '---\ntitle: Setup\n---\n\nSetting up. See [the guides](/guides/index) and [this page](./setup.mdx).\n',
  'docs/skill.md': '---\nname: mono\ndescription: What agents can do with Mono.\n---\n\n# Mono skill\n',
};

t.test('a Mintlify monorepo served by the site server', async (t) => {
  const tp = await startTestPlatform();
  t.teardown(() => tp.close());
  const project = (await tp.api('POST', '/projects', { name: 'Mono', slug: 'mono-site' })).body;
  const other = (await tp.api('POST', '/projects', { name: 'Other', slug: 'other-site' })).body;
  tp.startWorker();
  for (const [p, slug, files] of [
    [project, 'mono-site', MONOREPO],
    [other, 'other-site', { 'docs.json': JSON.stringify({ name: 'Other' }), 'docs/index.mdx': '# Other\n', 'docs/secret.mdx': '# Other site secret\n' }],
  ] as const) {
    const wc = await tp.workingCopy(slug, files as Record<string, string>);
    const sha = await wc.push();
    const d = await tp.waitForDeployment(p.id, (x) => x.commit_sha === sha && x.status !== 'queued');
    t.equal(d.status, 'deployed', d.error ?? '');
  }
  const get = (path: string) => tp.site('mono-site', path);

  await t.test('should build from the folder of docs.json and send / to the first page', async (t) => {
    const home = await get('/');
    t.same([home.status, home.headers.get('location')], [307, '/guides']);
    const setup = await get('/guides/setup');
    t.equal(setup.status, 200);
    t.match(setup.body, 'Setting up.');
    t.equal((await get('/src/app.ts')).status, 404, 'nothing outside the docs folder is published');
  });

  await t.test('should answer a page at its source\'s name, as Mintlify does', async (t) => {
    for (const path of ['/guides/index', '/guides/setup.mdx']) {
      const res = await get(path);
      t.equal(res.status, 200, path);
    }
    t.match((await get('/guides/index')).body, 'The guides start here.');
  });

  await t.test('should follow Mintlify\'s redirect patterns', async (t) => {
    const deep = await get('/beta/setup');
    t.same([deep.status, deep.headers.get('location')], [307, '/guides/setup']);
    const post = await get('/post/42?ref=x');
    t.same([post.status, post.headers.get('location')], [307, 'https://blog.example/p/42?ref=x']);
  });

  await t.test('should serve skill.md as it is, not as a page', async (t) => {
    const skill = await get('/skill.md');
    t.equal(skill.status, 200);
    t.match(skill.headers.get('content-type') ?? '', 'text/markdown');
    t.equal(skill.body, MONOREPO['docs/skill.md']);
  });

  await t.test('should never reach another site\'s pages through these paths', async (t) => {
    t.equal((await tp.site('other-site', '/secret')).status, 200, 'the other site has the page');
    for (const path of ['/secret', '/secret/index', '/secret.mdx', '/beta/../secret']) t.equal((await get(path)).status, 404, path);
  });
});
