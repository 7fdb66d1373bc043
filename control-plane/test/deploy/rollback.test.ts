import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import { createLocalDirStore, type ObjectStore } from '@folio/builder';
import { startTestPlatform, type TestPlatform } from '../helpers/platform.ts';

// A deployment that fails after it has uploaded files must leave the bucket (site and builder
// state) as the last deployed one made it. The failure is a real storage refusal: the site store
// is a real local folder whose writes of one key (the builder's manifest, its last write, so every
// page file was replaced before) are refused or held while a test says so.
const PAGES = 10;
const page = (i: number, marker: string) => `---\ntitle: Page ${i}\n---\n\nMarker ${marker}-page-${i}.\n\n\`\`\`ts title="x.ts"\nexport const v = '${marker}';\n\`\`\`\n`;
const pages = (marker: string, count = PAGES) => Object.fromEntries(Array.from({ length: count }, (_, i) => [`docs/page-${i}.mdx`, page(i, marker)]));

/** Every file of the bucket under `prefixes`, by key, as the sha256 of its bytes. */
function snapshot(root: string, prefixes: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (rel: string) => {
    for (const e of fs.readdirSync(path.join(root, rel), { withFileTypes: true })) {
      const key = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) walk(key);
      else out[key] = createHash('sha256').update(fs.readFileSync(path.join(root, key))).digest('hex');
    }
  };
  for (const p of prefixes) if (fs.existsSync(path.join(root, p))) walk(p.replace(/\/$/, ''));
  return out;
}

/** A real local store whose writes of keys a test names are refused, or held until it lets them go. */
function faultyStore(root: string) {
  const inner = createLocalDirStore(root);
  const faults: { refuse?(key: string): boolean; onRefused?(key: string): Promise<void>; hold?: { match(key: string): boolean; reached(): void; until: Promise<void> } } = {};
  const store: ObjectStore = {
    ...inner,
    async putStream(key, body, opts) {
      if (faults.refuse?.(key)) {
        await faults.onRefused?.(key);
        throw new Error(`disk full writing ${key}`);
      }
      const hold = faults.hold;
      if (hold?.match(key)) {
        faults.hold = undefined;
        hold.reached();
        await hold.until;
      }
      return inner.putStream(key, body, opts);
    },
  };
  return { store, inner, faults };
}

const until = async <T>(what: string, probe: () => Promise<T | undefined | false>, timeoutMs = 120_000): Promise<T> => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
};

t.test('rollback of failed deployments', async (t) => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-rollback-store-'));
  const { store, inner, faults } = faultyStore(root);
  const tp: TestPlatform = await startTestPlatform({ BUILD_LEASE_MS: '5000' }, { store });
  t.teardown(async () => { await tp.close(); fs.rmSync(root, { recursive: true, force: true }); });
  const m = tp.p.cp.m;
  const project = (await tp.api('POST', '/projects', { name: 'Rollback', slug: 'rollback-site' })).body;
  const prefixes = [`sites/${project.id}/`, `state/${project.id}/`];
  const manifestKey = `state/${project.id}/manifest.json.gz`;
  const paths = [...Array.from({ length: PAGES }, (_, i) => `/page-${i}`), '/page-new'];
  const served = async () => Object.fromEntries(await Promise.all(paths.map(async (p) => {
    const res = await tp.site('rollback-site', p);
    return [p, `${res.status} ${res.body}`] as const;
  })));
  const noLeftovers = () => until('the journal and the rollback copies to be gone', async () => (await m.PublishJournal.countDocuments() === 0 && (await inner.list('rollback/')).length === 0));
  const wc = await tp.workingCopy('rollback-site', { 'docs.json': JSON.stringify({ name: 'Rollback' }), ...pages('v1') });
  let worker = tp.startWorker();

  let v1Files: Record<string, string> = {};
  let v1Served: Record<string, string> = {};
  await t.test('should leave no rollback copies after a deployment that succeeds', async (t) => {
    const sha = await wc.push();
    const d = await tp.waitForDeployment(project.id, (x) => x.commit_sha === sha);
    t.equal(d.status, 'deployed', d.error ?? 'no error');
    await noLeftovers();
    t.same(await inner.list('rollback/'), []);
    v1Files = snapshot(root, prefixes);
    v1Served = await served();
    t.match(v1Served['/page-3'], /^200 [^]*Marker v1-page-3/);
    t.match(v1Served['/page-new'], /^404 /);
  });

  await t.test('should put back every file of a deployment that fails after its uploads, before it reads failed', async (t) => {
    // v2 edits half the pages, adds one and removes one.
    const v2 = { ...pages('v1'), ...pages('v2', PAGES / 2), 'docs/page-new.mdx': page(99, 'v2') };
    delete (v2 as Record<string, string>)[`docs/page-${PAGES - 1}.mdx`];
    await wc.write(v2, [`docs/page-${PAGES - 1}.mdx`]);
    const liveWhenRefused: string[] = [];
    faults.refuse = (key) => key === manifestKey;
    // What the site held when the last write was refused: the edited page was already replaced.
    faults.onRefused = async () => { liveWhenRefused.push(Buffer.from((await inner.get(`sites/${project.id}/page-0/index.html`)) ?? []).toString('utf8')); };
    const sha = await wc.push();
    const d = await tp.waitForDeployment(project.id, (x) => x.commit_sha === sha, 300_000);
    t.equal(d.status, 'failed');
    t.match(d.error, /disk full|store_error|500/);
    t.ok(liveWhenRefused.length >= 1, 'the manifest write was refused');
    t.match(liveWhenRefused[0], /Marker v2-page-0/, 'the failed build had replaced a live page before it failed');
    // Reported failed only after the restore: the files are v1's at once, not eventually.
    t.same(snapshot(root, prefixes), v1Files, 'the site and the builder state are byte for byte the last deployed ones');
    t.same(await served(), v1Served, 'every page serves what it served before');
    t.equal(await m.PublishJournal.countDocuments(), 0, 'the journal is empty');
    t.same(await inner.list('rollback/'), [], 'no rollback copies are left');
  });

  await t.test('should publish the same commit fully once storage works again (the builder saw the rollback)', async (t) => {
    faults.refuse = undefined;
    // The same kept build process builds the same commit again: it must find v1's state and upload
    // every file v2 changes again, not trust what it uploaded before the failure.
    const res = await tp.api('POST', `/projects/${project.id}/deployments`);
    t.equal(res.status, 202);
    const d = await tp.waitForDeployment(project.id, (x) => x.id === res.body.id);
    t.equal(d.status, 'deployed', d.error ?? 'no error');
    t.equal(d.pages_success, PAGES);
    const now = await served();
    for (let i = 0; i < PAGES - 1; i++) t.match(now[`/page-${i}`], new RegExp(`^200 [^]*Marker v${i < PAGES / 2 ? 2 : 1}-page-${i}`), `page ${i}`);
    t.match(now[`/page-${PAGES - 1}`], /^404 /, 'the removed page is gone');
    t.match(now['/page-new'], /^200 [^]*Marker v2-page-99/, 'the new page is live');
    await noLeftovers();
  });

  await t.test('should undo a dead builder\'s writes before its job is handed out again', async (t) => {
    const before = snapshot(root, prefixes);
    const beforeServed = await served();
    await wc.write(pages('v4'));
    let reached!: () => void;
    const held = new Promise<void>((resolve) => { reached = resolve; });
    let letGo!: (err: Error) => void;
    faults.hold = { match: (key) => key === manifestKey, reached, until: new Promise<void>((_, reject) => { letGo = reject; }) };
    const sha = await wc.push();
    await held;
    // Every page is uploaded (the manifest is the last write): the site shows the new build's pages.
    t.match((await tp.site('rollback-site', '/page-7')).body, /Marker v4-page-7/);
    t.ok(await m.PublishJournal.countDocuments({}) > 0, 'its writes are journaled');
    const copies = await inner.list('rollback/');
    t.ok(copies.length > 0, 'the objects it replaced are kept');
    t.equal((await tp.site('rollback-site', `/${copies[0]}`)).status, 404, 'the site server does not serve a copy');
    worker.kill('SIGKILL');
    await new Promise((r) => worker.child.once('exit', r));
    letGo(new Error('the writer went away'));
    // The lease runs out; the next claim takes the job over, and has undone the writes when it answers.
    const claim = await until('the job to be claimable again', async () => {
      const res = await fetch(`${tp.p.internalUrl}/internal/v1/jobs/claim`, { method: 'POST', headers: { authorization: 'Bearer test-worker-secret', 'content-type': 'application/json' }, body: JSON.stringify({ worker_id: 'test-claimer' }) });
      return res.status === 200 ? await res.json() as { deployment_id: string; fencing: number; token: string } : (await res.body?.cancel(), undefined);
    }, 60_000);
    t.ok(claim.fencing >= 2, `taken over (fencing ${claim.fencing})`);
    t.same(snapshot(root, prefixes), before, 'the bucket is as the last deployment left it');
    t.same(await served(), beforeServed);
    t.equal(await m.PublishJournal.countDocuments(), 0);
    t.same(await inner.list('rollback/'), []);

    // The job's object routes cannot reach the rollback prefix, even with a copy there.
    const objects = `${tp.p.internalUrl}/internal/v1/jobs/${claim.deployment_id}/objects`;
    const auth = { authorization: `Bearer ${claim.token}`, 'x-folio-fencing': String(claim.fencing) };
    const planted = `rollback/${claim.deployment_id}/abc/sites/${project.id}/page-0.html`;
    await inner.put(planted, Buffer.from('kept'));
    for (const key of [planted, `rollback/abc/sites/${project.id}/page-0.html`]) {
      const res = await fetch(`${objects}/${key}`, { headers: auth });
      t.equal(res.status, 404, `GET ${key}`);
      await res.body?.cancel();
    }
    const climb = await fetch(`${objects}/..%2F..%2F${planted.split('/').join('%2F')}`, { headers: auth });
    t.equal(climb.status, 400, 'a key cannot climb out of the site');
    await climb.body?.cancel();
    for (const prefix of ['', 'rollback/', '_folio/']) {
      const keys = (await (await fetch(`${objects}${prefix ? `?prefix=${encodeURIComponent(prefix)}` : ''}`, { headers: auth })).json() as { keys: string[] }).keys;
      t.same(keys.filter((k) => k.includes('rollback')), [], `listing "${prefix}" shows no copy`);
    }
    await inner.delete([planted]);

    // Handed back, the job is built by a new worker and published whole.
    const released = await fetch(`${tp.p.internalUrl}/internal/v1/jobs/${claim.deployment_id}/release`, { method: 'POST', headers: { authorization: `Bearer ${claim.token}`, 'content-type': 'application/json' }, body: JSON.stringify({ fencing: claim.fencing }) });
    t.equal(released.status, 204);
    worker = tp.startWorker();
    const d = await tp.waitForDeployment(project.id, (x) => x.commit_sha === sha);
    t.equal(d.status, 'deployed', d.error ?? 'no error');
    const now = await served();
    for (let i = 0; i < PAGES; i++) t.match(now[`/page-${i}`], new RegExp(`^200 [^]*Marker v4-page-${i}`), `page ${i}`);
    await noLeftovers();
  });
});
