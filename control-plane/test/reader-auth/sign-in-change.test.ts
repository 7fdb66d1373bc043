/**
 * Turning reader sign-in on or off takes effect without a push. A site with a page for every
 * signed-in reader and one for `partners` is live with sign-in off (anyone reads the first; the
 * second is not published). An owner
 * turns sign-in on in the dashboard: a redeploy of the production site is queued, and before it
 * is built (no worker runs) nobody reads a page: a reader without a session goes to the sign-in
 * page, a signed-in partner is asked to retry. Once the build is live, the public pages are
 * served as before and the partner reads the partners' page. Turning sign-in off queues a
 * redeploy too, and until it is live the gated pages stay hidden. Another organization can
 * neither change the settings nor queue a build of the site.
 */
import t from 'tap';
import type { TestApi } from '../helpers/api.ts';
import { addUser, dash, signIn } from '../helpers/dashboard.ts';
import { JWT_SETTINGS, MARKERS, startReaderSite } from './reader-site.ts';

t.test('a sign-in change republishes the site and nothing leaks meanwhile', async (t) => {
  const site = await startReaderSite({}, null);
  t.teardown(() => site.close());
  const { tp, project } = site;
  const api = { url: tp.p.cp.apiUrl, cp: tp.p.cp, clock: { now: new Date() } } as unknown as TestApi;
  const owner = await signIn(api, (await addUser(api, tp.orgId, 'owner')).email);
  const path = `/projects/${project.id}/reader-auth`;
  const deployments = async () => (await tp.api('GET', `/projects/${project.id}/deployments`)).body.data as { id: string; status: string; trigger: string }[];
  const body = async (p: string, cookie = '') => {
    const res = await site.get(p, cookie ? { cookie } : {});
    return { ...res, text: res.body.toString('utf8') };
  };

  const open = await body('/members');
  t.equal(open.status, 200, 'with sign-in off, the members page is public');
  t.match(open.text, MARKERS.members);
  t.equal((await body('/partner-guide')).status, 404, 'a page for a group is not published while sign-in is off');

  await t.test('another organization cannot turn sign-in on nor queue a build', async (t) => {
    const other = await tp.newOrg('other-org');
    const stranger = await signIn(api, (await addUser(api, other.orgId, 'owner')).email);
    const before = (await deployments()).length;
    const res = await dash(api, 'PUT', path, { auth: stranger, body: JWT_SETTINGS });
    t.equal(res.status, 404);
    t.same(res.body, { error: 'not_found', message: 'project not found' });
    t.equal((await deployments()).length, before, 'no deployment queued');
    t.equal((await body('/members')).status, 200, 'the site is unchanged');
  });

  // No builder runs from here on until the test starts one: the redeploy stays queued.
  site.worker.kill();
  const live = (await deployments())[0];
  const on = await dash(api, 'PUT', path, { auth: owner, body: JWT_SETTINGS });
  t.equal(on.status, 200, 'the owner turns sign-in on');
  const queued = (await deployments())[0];
  t.equal(queued.status, 'queued', 'a redeploy is queued');
  t.not(queued.id, live.id);

  await t.test('before the redeploy is built, no page is served', async (t) => {
    for (const p of ['/', '/open', '/members', '/partner-guide', '/members.md', '/llms-full.txt', '/sitemap.xml']) {
      const res = await body(p);
      t.equal(res.status, 303, `${p} sends a reader without a session to sign in`);
      t.equal(res.headers.location, `/_folio/sign-in?next=${encodeURIComponent(p)}`);
      t.notMatch(res.text, MARKERS.members);
    }
    t.equal((await body('/_folio/sign-in')).status, 200, 'the sign-in page is served');
    const partner = await site.session(['partners']);
    const res = await body('/partner-guide', partner);
    t.equal(res.status, 503, 'a signed-in reader is asked to retry');
    t.equal(res.headers['retry-after'], '30');
    t.equal(res.headers['cache-control'], 'private, no-store');
    t.notMatch(res.text, MARKERS.partners);
    t.notMatch(res.text, MARKERS.members);
    t.match(res.text, 'published again');
  });

  await t.test('once it is live, public pages are served and the partner reads their page', async (t) => {
    const worker = tp.startWorker({ POLL_MS: '50' });
    const done = await tp.waitForDeployment(project.id, (d) => d.id === queued.id && ['deployed', 'failed'].includes(d.status), 300_000);
    t.equal(done.status, 'deployed', done.error ?? '');
    t.equal((await body('/')).status, 200, 'the home page is public again');
    t.equal((await body('/open')).status, 200);
    const members = await body('/members');
    t.equal(members.status, 303, 'the members page needs sign-in');
    t.notMatch(members.text, MARKERS.members);
    const partner = await site.session(['partners']);
    const guide = await body('/partner-guide', partner);
    t.equal(guide.status, 200);
    t.match(guide.text, MARKERS.partners, 'the partner reads the partners\' page');
    t.notMatch((await body('/partner-guide', await site.session(['other']))).text, MARKERS.partners, 'another group does not');

    // Off again: a redeploy publishes every page at the site; until then the gated ones stay hidden.
    worker.kill();
    const off = await dash(api, 'DELETE', path, { auth: owner });
    t.equal(off.status, 204);
    const again = (await deployments())[0];
    t.equal(again.status, 'queued', 'turning sign-in off queues a redeploy too');
    t.not(again.id, queued.id);
    const hidden = await body('/members');
    t.not(hidden.status, 200, 'a gated page stays hidden until the redeploy is live');
    t.notMatch(hidden.text, MARKERS.members);
    t.equal((await body('/open')).status, 200, 'public pages are served meanwhile');
    tp.startWorker({ POLL_MS: '50' });
    const rebuilt = await tp.waitForDeployment(project.id, (d) => d.id === again.id && ['deployed', 'failed'].includes(d.status), 300_000);
    t.equal(rebuilt.status, 'deployed', rebuilt.error ?? '');
    t.match((await body('/members')).text, MARKERS.members, 'once live, the members page is public again');
  });
});
