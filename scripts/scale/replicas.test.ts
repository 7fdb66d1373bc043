/**
 * Several control-plane replicas sharing only the database and object storage: three `npm start`
 * processes on one database server process (`npm run db:serve`, or MONGODB_URI when set) and one
 * S3-compatible server, four builders reaching them through a load balancer, fifty projects
 * pushed through different replicas at once, and one replica killed with SIGKILL midway. Then:
 * every push ends in exactly one deployment, deployed, whose site serves it; nothing is left
 * queued or building; the dashboard's event stream on one replica saw deployments that other
 * replicas finished; sign-in limits count across replicas; each deployment's webhook arrived once.
 *
 * A long test (about 20 minutes on a loaded 2-core machine), run on its own with
 * `npm run test:replicas`, not by `npm test`.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import { createApiKey, createOrganization } from '@folio/control-plane';
import { connectDatabase } from '@folio/control-plane/db/connect.ts';
import { models } from '@folio/control-plane/db/models/index.ts';
import { hashPassword } from '@folio/control-plane/dashboard/passwords.ts';
import { runGit } from '@folio/control-plane/git/git-cli.ts';
import { startS3Server } from '../../builder/test/helpers/s3-server.ts';
import { jsonReceiver } from '../../control-plane/test/helpers/json-receiver.ts';
import { rawRequest } from '../../control-plane/test/helpers/raw-http.ts';
import { alive, startDatabaseProcess, startReplica, tcpBalancer, type Proc, type Replica } from '../src/bench/replica-processes.ts';
import { spawnWorkers } from '../src/spawn-workers.ts';

const PROJECTS = 50;
const BUILDERS = 4;
const KILL_AFTER_PUSHES = 20;
const WORKER_SECRET = 'replicas-test-worker-secret-0123456789';
const PASSWORD = 'correct horse battery staple';
const GIT_ENV = { GIT_AUTHOR_NAME: 'r', GIT_AUTHOR_EMAIL: 'r@example.com', GIT_COMMITTER_NAME: 'r', GIT_COMMITTER_EMAIL: 'r@example.com' };

/** Waits until `done()` holds, checking every `everyMs`; fails with `what` after twenty minutes (a hang, not a slow machine). */
async function until(what: string | (() => string | Promise<string>), done: () => boolean | Promise<boolean>, everyMs = 500): Promise<void> {
  const deadline = Date.now() + 20 * 60_000;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`still waiting: ${typeof what === 'string' ? what : await what()}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

t.test('three control-plane replicas, four builders, one replica killed midway', { timeout: 30 * 60_000 }, async (t) => {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-replicas-'));
  t.teardown(() => fs.rmSync(work, { recursive: true, force: true }));
  const procs: Proc[] = [];
  t.teardown(() => { for (const p of procs) if (alive(p)) p.child.kill('SIGKILL'); });

  // The database: real MongoDB when MONGODB_URI is set, else the embedded server in its own process.
  let mongodbUri = process.env.MONGODB_URI;
  if (!mongodbUri) {
    const db = await startDatabaseProcess(path.join(work, 'db-data'));
    procs.push(db.proc);
    mongodbUri = db.uri;
  } else {
    mongodbUri = mongodbUri.replace(/\/([^/?]*)(\?|$)/, `/folio-replicas-${process.pid}$2`);
  }
  const s3 = await startS3Server('folio-replicas');
  t.teardown(() => s3.close());
  const hooks = await jsonReceiver('/hooks');
  t.teardown(() => hooks.close());

  // Builders and replicas reach each other only through the balancer, as behind a Service.
  const replicas: Replica[] = [];
  const lb = await tcpBalancer(() => replicas.filter((r) => alive(r.proc)).map((r) => r.apiPort));
  t.teardown(() => lb.close());
  for (let i = 0; i < 3; i++) {
    const replica = await startReplica({
      mongodbUri, dataDir: path.join(work, 'cp-data'), workerSecret: WORKER_SECRET, internalApiUrl: lb.url, s3,
      env: { OUTBOUND_PRIVATE_HOSTS: hooks.host },
    });
    procs.push(replica.proc);
    replicas.push(replica);
  }

  const db = await connectDatabase({ mongodbUri });
  t.teardown(() => db.close());
  const m = models(db.connection);
  const org = await createOrganization(m, `replicas-${process.pid}`, 'enterprise');
  const { key } = await createApiKey(m, { orgId: org._id });
  const addUser = async (email: string) => {
    const user = await m.User.create({ email, name: email, password_hash: await hashPassword(PASSWORD), created_at: new Date() });
    await m.Membership.create({ org_id: org._id, user_id: user._id, role: 'owner', created_at: new Date() });
    return email;
  };
  const owner = await addUser(`owner-${process.pid}@example.com`);
  const signIn = async (api: string, email = owner, password = PASSWORD) => {
    const res = await fetch(`${api}/dashboard/api/auth/sign-in`, { method: 'POST', headers: { 'content-type': 'application/json', origin: api }, body: JSON.stringify({ email, password }) });
    const body = await res.json() as any;
    const token = res.headers.getSetCookie().find((c) => c.startsWith('folio_session='))?.split(';')[0];
    return { status: res.status, body, cookie: token, csrf: body.csrf_token as string | undefined };
  };
  const session = await signIn(replicas[0]!.api);
  t.equal(session.status, 200, 'signed in on replica 1');

  // Replica 2's dashboard stream, open before anything is pushed.
  // Closed by aborting: a stream being read is locked, so `body.cancel()` would be refused and the read would never end.
  const streamAbort = new AbortController();
  const streamRes = await fetch(`${replicas[1]!.api}/dashboard/api/deployments/events`, { headers: { cookie: session.cookie! }, signal: streamAbort.signal });
  t.equal(streamRes.status, 200);
  const streamed = new Map<string, string>();
  const reading = (async () => {
    const decoder = new TextDecoder();
    let text = '';
    for await (const chunk of streamRes.body as unknown as AsyncIterable<Uint8Array>) {
      text += decoder.decode(chunk, { stream: true });
      const blocks = text.split('\n\n');
      text = blocks.pop()!;
      for (const b of blocks) if (b.startsWith('event: deployment\n')) { const d = JSON.parse(b.split('\ndata: ')[1]!); if (d.status === 'deployed' || d.status === 'failed') streamed.set(d.id, d.status); }
    }
  })().catch(() => {});

  // Fifty projects, created round robin through the three replicas, each with a webhook endpoint.
  const projects: Array<{ id: string; slug: string; dir: string; via: number; commit?: string }> = [];
  for (let i = 0; i < PROJECTS; i++) {
    const r = replicas[i % 3]!;
    const res = await fetch(`${r.api}/v1/projects`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ name: `Replica ${i}`, slug: `replica-${process.pid}-${i}` }) });
    t.equal(res.status, 201, `project ${i} created through replica ${i % 3 + 1}`);
    const p = await res.json() as { id: string; slug: string };
    const hook = await fetch(`${r.api}/dashboard/api/projects/${p.id}/webhooks`, { method: 'POST', headers: { cookie: session.cookie!, 'x-csrf-token': session.csrf!, origin: r.api, 'content-type': 'application/json' }, body: JSON.stringify({ url: hooks.url, events: ['deployment.succeeded'] }) });
    t.equal(hook.status, 201, `webhook of project ${i}`);
    const dir = path.join(work, `wc-${i}`);
    fs.mkdirSync(dir);
    await runGit(['init', '-q', '-b', 'main'], { cwd: dir });
    fs.writeFileSync(path.join(dir, 'docs.json'), JSON.stringify({ name: `Replica ${i}`, navigation: [{ group: 'Docs', pages: ['index', 'guide'] }] }));
    fs.writeFileSync(path.join(dir, 'index.mdx'), `---\ntitle: Home ${i}\n---\n\nReplica marker ${i}-${process.pid}.\n`);
    fs.writeFileSync(path.join(dir, 'guide.mdx'), `---\ntitle: Guide\n---\n\n## Steps\n\nFollow the guide of project ${i}.\n`);
    await runGit(['add', '-A'], { cwd: dir });
    await runGit(['commit', '-q', '-m', 'first'], { cwd: dir, env: GIT_ENV });
    projects.push({ id: p.id, slug: p.slug, dir, via: i % 3 });
  }
  // The builders' complaints (lost leases, failed or ended builds, deaths), kept to explain a deployment that failed.
  const builderTrouble: string[] = [];
  const builders = spawnWorkers(BUILDERS, {
    controlPlaneUrl: lb.url, workerSecret: WORKER_SECRET, extraEnv: { POLL_MS: '200' },
    onOutput: (slot, line) => { if (/lease|error|fail|ended|killed|exit/i.test(line)) builderTrouble.push(`builder ${slot}: ${line.slice(0, 300)}`); },
    log: (message) => builderTrouble.push(message),
  });
  t.teardown(() => builders.stop());

  // Pushes at once (eight in flight), each through its own replica; replica 3 is killed after
  // twenty, and a push it can no longer take goes through replica 1 instead.
  let pushed = 0;
  let killedAt = -1;
  const pushOne = async (p: (typeof projects)[number]) => {
    for (const via of [p.via, 0]) {
      const r = replicas[via]!;
      const remote = `${r.api.replace('http://', `http://x:${key}@`)}/git/${p.slug}.git`;
      const { code } = await runGit(['push', '-q', remote, 'main'], { cwd: p.dir, allowFail: true });
      if (code === 0) break;
      if (via === 0) throw new Error(`push of ${p.slug} failed through replica 1 too`);
    }
    p.commit = (await runGit(['rev-parse', 'HEAD'], { cwd: p.dir })).stdout.toString().trim();
    if (++pushed === KILL_AFTER_PUSHES) { killedAt = pushed; replicas[2]!.proc.child.kill('SIGKILL'); }
  };
  const queue = [...projects];
  await Promise.all(Array.from({ length: 8 }, async () => { for (let p = queue.shift(); p; p = queue.shift()) await pushOne(p); }));
  t.equal(killedAt, KILL_AFTER_PUSHES, 'replica 3 was killed midway');
  await new Promise<void>((r) => { if (!alive(replicas[2]!.proc)) r(); else replicas[2]!.proc.child.once('exit', () => r()); });
  t.equal(replicas[2]!.proc.child.signalCode, 'SIGKILL');

  // Every project's pushed commit deployed (the test's own timeout bounds the wait).
  const ids = projects.map((p) => p.id);
  const states = async () => {
    const counts = await m.Deployment.aggregate([{ $match: { project_id: { $in: ids } } }, { $group: { _id: '$status', n: { $sum: 1 } } }]);
    const withDeployment = new Set((await m.Deployment.distinct('project_id', { project_id: { $in: ids } })).map(String));
    const missing = projects.filter((p) => !withDeployment.has(p.id)).map((p) => `${p.slug} (pushed through replica ${p.via + 1}, commit ${p.commit})`);
    const intents = await m.PushIntent.find({}).lean();
    const errors = replicas.flatMap((r, i) => r.proc.lines.filter((l) => /error|failed/i.test(l)).slice(-5).map((l) => `replica ${i + 1}: ${l}`));
    return `every project deployed; now ${JSON.stringify(counts)}; without a deployment: ${missing.join(', ') || 'none'}; push intents left: ${JSON.stringify(intents)}; builders: ${builders.slots.map((s) => s.restarts).join(',')} restarts; replica errors: ${errors.join(' | ') || 'none'}`;
  };
  await until(states, async () => await m.Deployment.countDocuments({ project_id: { $in: projects.map((p) => p.id) }, status: { $in: ['deployed', 'failed'] } }) >= PROJECTS, 1000);
  const deployments = await m.Deployment.find({ project_id: { $in: projects.map((p) => p.id) } }).lean();
  for (const p of projects) {
    const mine = deployments.filter((d) => String(d.project_id) === p.id);
    t.equal(mine.length, 1, `${p.slug}: one deployment for one push`);
    t.equal(mine[0]?.status, 'deployed', `${p.slug}: deployed${mine[0]?.status === 'failed' ? ` (failed after ${mine[0].attempts} attempts: ${mine[0].error}; builders said: ${builderTrouble.slice(-8).join(' | ') || 'nothing'})` : ''}`);
    t.equal(mine[0]?.commit_sha, p.commit, `${p.slug}: the pushed commit`);
  }
  t.equal(deployments.filter((d) => ['queued', 'building'].includes(d.status as string)).length, 0, 'nothing left queued or building');

  // The sites are served by the replicas still alive, from the shared store.
  for (const p of projects.slice(0, 10)) {
    const i = projects.indexOf(p);
    const res = await rawRequest(Number(new URL(replicas[i % 2]!.sites).port), 'GET', '/', { host: `${p.slug}.localhost` });
    t.match(res.text, `Replica marker ${i}-${process.pid}`, `${p.slug} served by replica ${i % 2 + 1}`);
  }

  // Replica 2's stream saw every deployment end, whichever replica took the builder's report.
  await until(() => `replica 2's stream to show every deployment's end (${streamed.size} so far)`, () => deployments.every((d) => streamed.has(String(d._id))));
  t.same(deployments.map((d) => streamed.get(String(d._id))), deployments.map((d) => d.status), `replica 2's dashboard stream saw how all ${deployments.length} deployments ended`);
  streamAbort.abort();
  await reading;

  // Each deployment's webhook arrived, and arrived once, though every replica runs a scheduler.
  await until('every webhook', () => { const ids = new Set(hooks.got.map((b) => b.id)); return deployments.every((d) => d.status !== 'deployed' || ids.has(`${d._id}.deployment.succeeded`)); });
  await new Promise((r) => setTimeout(r, 3000));
  const perId = new Map<string, number>();
  for (const b of hooks.got) perId.set(b.id, (perId.get(b.id) ?? 0) + 1);
  t.same([...perId.values()].filter((n) => n !== 1), [], `${perId.size} webhook messages, each delivered once`);
  t.equal(perId.size, deployments.filter((d) => d.status === 'deployed').length, 'one message per deployed deployment');

  // Sign-in limits hold across replicas: five checked attempts for one email in a window, then 429.
  const limited = await addUser(`limited-${process.pid}@example.com`);
  const statuses: number[] = [];
  for (let i = 0; i < 5; i++) statuses.push((await signIn(replicas[i % 2]!.api, limited, 'wrong password')).status);
  t.same(statuses, [401, 401, 401, 401, 401], 'five wrong passwords refused, on both replicas');
  const sixth = await signIn(replicas[1]!.api, limited);
  t.equal(sixth.status, 429, 'the sixth attempt, on the other replica, is over the limit');
  t.equal(sixth.body.error, 'rate_limited');
});
