import t from 'tap';
import { startTestPlatform } from '../helpers/platform.ts';

const page = (title: string, body: string) => `---\ntitle: ${title}\n---\n\n${body}\n`;
const LINK = /<link rel="stylesheet" href="(\/_folio\/custom-[0-9a-f]{12}\.css)"\/?>/;

t.test('custom CSS on the platform', async (t) => {
  const tp = await startTestPlatform();
  t.teardown(() => tp.close());
  const worker = tp.startWorker();
  await worker.waitFor(/polling/);
  const m = tp.p.cp.m;

  const project = (await tp.api('POST', '/projects', { name: 'Styled', slug: 'styled' })).body;
  const wc = await tp.workingCopy('styled', {
    'docs.json': JSON.stringify({ name: 'Styled', css: ['theme/brand.css'] }),
    'docs/index.mdx': page('Home', 'Styled home.'),
    'style.css': '@import url("https://fonts.example/f.css");\n.hero { color: rebeccapurple; background: url(https://tracker.example/p.gif) }\n',
    'theme/brand.css': '.brand { border: 1px solid hotpink }\n',
  });
  const deploy = async () => {
    const sha = await wc.push();
    const d = await tp.waitForDeployment(project.id, (x) => x.commit_sha === sha);
    t.equal(d.status, 'deployed', d.error ?? '');
    return d;
  };
  let firstKey = '';

  t.test('should link the sanitised stylesheet after the theme\'s CSS', async (t) => {
    await deploy();
    const home = await tp.site('styled', '/');
    const link = LINK.exec(home.body);
    t.ok(link, 'the page links the custom stylesheet');
    firstKey = link![1];
    const theme = home.body.search(/<link rel="stylesheet" href="\/_folio\/[^"]*theme[^"]*"|<link rel="stylesheet"/);
    t.ok(theme >= 0 && theme < home.body.indexOf(firstKey), 'after the theme stylesheet');
    const css = await tp.site('styled', firstKey);
    t.equal(css.status, 200);
    t.match(css.headers.get('content-type'), /^text\/css/);
    t.equal(css.body, '/* style.css */\n.hero { color: rebeccapurple; background: none }\n\n/* theme/brand.css */\n.brand { border: 1px solid hotpink }\n');
  });

  t.test('should keep the last stylesheet, frozen, after a downgrade', async (t) => {
    await m.Organization.updateOne({ _id: tp.orgId }, { $set: { pending_plan: 'free', pending_plan_at: new Date(Date.now() - 1000) } });
    await wc.write({ 'style.css': '.hero { color: lime }\n', 'docs/index.mdx': page('Home', 'Edited after the downgrade.') });
    await deploy();
    const home = await tp.site('styled', '/');
    t.match(home.body, /Edited after the downgrade/);
    t.equal(LINK.exec(home.body)?.[1], firstKey, 'the same stylesheet is still linked');
    t.match((await tp.site('styled', firstKey)).body, /rebeccapurple/);
  });

  t.test('should apply the repository\'s stylesheet again after re-upgrading', async (t) => {
    await m.Organization.updateOne({ _id: tp.orgId }, { $set: { plan: 'pro' } });
    await wc.write({ 'docs/index.mdx': page('Home', 'Upgraded again.') });
    await deploy();
    const key = LINK.exec((await tp.site('styled', '/')).body)?.[1];
    t.not(key, firstKey);
    t.match((await tp.site('styled', key!)).body, /\.hero \{ color: lime \}/);
  });

  t.test('should not apply custom CSS on the free plan', async (t) => {
    const free = await tp.newOrg(`free-css-${process.pid}`);
    await m.Organization.updateOne({ _id: free.orgId }, { $set: { plan: 'free' } });
    const p = (await tp.api('POST', '/projects', { name: 'Plain', slug: 'plain-css' }, free.key)).body;
    const w = await tp.workingCopy('plain-css', { 'docs.json': JSON.stringify({ name: 'Plain' }), 'docs/index.mdx': page('Home', 'Plain.'), 'style.css': '.x { color: red }\n' }, free.key);
    const sha = await w.push();
    const d = await tp.waitForDeployment(p.id, (x) => x.commit_sha === sha, undefined, free.key);
    t.equal(d.status, 'deployed');
    t.notMatch((await tp.site('plain-css', '/')).body, LINK);
  });
});
