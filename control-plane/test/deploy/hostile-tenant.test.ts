import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { HARMLESS_PAGES, hostileRepo, leaks } from '../../../builder/test/helpers/hostile-pages.ts';
import { startTestPlatform } from '../helpers/platform.ts';

const MARKER = 'ORG-A-PRIVATE-MARKER';

/** Every file under `dir`, as text. */
function filesUnder(dir: string): Array<{ file: string; text: string }> {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => { const file = path.join(e.parentPath, e.name); return { file, text: fs.readFileSync(file, 'latin1') }; });
}

const root = process.getuid?.() === 0;
/** The deployment shapes a builder runs in: what each adds around the sandbox differs. */
const SHAPES = [
  { name: 'on a single machine (root: sandboxes also get a network namespace and a user of their own)', asUser: undefined, skip: false },
  // The builder image runs as the unprivileged user folio (uid 10001): the permission model alone.
  { name: 'as the builder image runs it (non-root: the permission model alone)', asUser: 10001, skip: !root && 'needs root to start the worker as another user' },
] as const;

for (const shape of SHAPES) t.test(`a hostile tenant, ${shape.name}`, { skip: shape.skip }, async (t) => {
  const tp = await startTestPlatform();
  t.teardown(() => tp.close());
  const worker = tp.startWorker({}, shape.asUser);
  await worker.waitFor(/polling/);

  // Organization A: an ordinary customer.
  const victim = (await tp.api('POST', '/projects', { name: 'Victim', slug: 'victim' })).body;
  const victimCopy = await tp.workingCopy('victim', { 'docs.json': JSON.stringify({ name: 'Victim' }), 'docs/index.mdx': `---\ntitle: Victim\n---\n\n${MARKER}\n` });
  const victimSha = await victimCopy.push();
  t.equal((await tp.waitForDeployment(victim.id, (d) => d.commit_sha === victimSha)).status, 'deployed');

  // Organization B pushes pages that try every way out of the build.
  const b = await tp.newOrg('attacker-org');
  const attacker = (await tp.api('POST', '/projects', { name: 'Attacker', slug: 'attacker' }, b.key)).body;
  const files = hostileRepo({ dataDir: tp.dataDir, victimProjectId: victim.id, internalUrl: tp.p.internalUrl });
  const copy = await tp.workingCopy('attacker', files, b.key);
  const sha = await copy.push();
  const d = await tp.waitForDeployment(attacker.id, (x) => x.commit_sha === sha, 600_000, b.key);
  const needles = ['test-worker-secret', 'WORKER_SECRET', 'CONTROL_PLANE_URL', 'uid=0', MARKER, 'secret_hash', tp.key, b.key, tp.dataDir, '/proc/self/environ:'];

  t.test('should build, failing every page that reached out and nothing else', async (t) => {
    t.equal(d.status, 'deployed', d.error);
    const pages = Object.keys(files).filter((f) => f.endsWith('.mdx'));
    t.equal(d.pages_total, pages.length);
    const failed = (d.error as string).split('\n').map((line) => line.split(':')[0]).sort();
    t.same(failed, pages.filter((p) => !HARMLESS_PAGES.includes(p)).sort());
    t.match(d.error, /docs\/loop\.mdx: Page took too long to compile and run/);
    t.match(d.error, /docs\/alloc\.mdx: Page used more memory than a page's compile may/);
    t.match(d.error, /docs\/kill\.mdx:5:1: Unexpected error while running the page: process\.kill is not available while compiling a page/);
  });

  t.test('should let no host data into the site, the pages API or the deployment', async (t) => {
    t.same(leaks(d.error, needles), [], 'deployment error');
    for (const { file, text } of filesUnder(path.join(tp.dataDir, 'sites', attacker.id))) {
      t.same(leaks(text, needles.filter((n) => n !== tp.dataDir || !file.endsWith('.md'))), [], path.relative(tp.dataDir, file));
    }
    const pages = (await tp.api('GET', `/projects/${attacker.id}/pages`, undefined, b.key)).body.data;
    t.same(pages.map((p: { path: string }) => p.path), ['/']);
    t.same(leaks(JSON.stringify(pages), needles), [], 'pages API');
    t.match((await tp.site('attacker', '/')).body, /An ordinary page, whose environment holds NODE_ENV, TMPDIR\./, 'the environment a page sees has nothing of the host');
  });

  t.test('should leave the other organization\'s site as it was', async (t) => {
    t.notOk(fs.existsSync(path.join(tp.dataDir, 'sites', victim.id, 'pwned.txt')));
    t.equal((await tp.site('victim', '/pwned.txt')).status, 404);
    t.match((await tp.site('victim', '/')).body, new RegExp(MARKER));
  });

  t.test('should keep the worker building', async (t) => {
    await victimCopy.write({ 'docs/index.mdx': `---\ntitle: Victim\n---\n\n${MARKER} again\n` });
    const next = await victimCopy.push();
    t.equal((await tp.waitForDeployment(victim.id, (x) => x.commit_sha === next)).status, 'deployed');
    t.match((await tp.site('victim', '/')).body, new RegExp(`${MARKER} again`));
  });
});
