import t from 'tap';
import { signBody } from '../../src/webhooks/verify-signature.ts';
import { startTestApi } from '../helpers/api.ts';
import { envWithGithub, startGithubStandIn } from '../helpers/github-stand-in.ts';

const SECRET = 'webhook-secret-for-dedupe';
const sha = (c: string) => c.repeat(40);
let delivery = 0;

t.test('GitHub webhook: commit de-duplication', async (t) => {
  const gh = await startGithubStandIn();
  t.teardown(() => gh.close());
  const api = await startTestApi({ env: envWithGithub(gh, { GITHUB_WEBHOOK_SECRET: SECRET }) });
  t.teardown(() => api.close());
  const m = api.cp.m;
  const { key, orgId } = await api.tenant('enterprise');
  /** GitHub's ids of each repository, as a push delivered to the App names it. */
  const idsOf = new Map<string, { installation: { id: number }; repository: { id: number; full_name: string } }>();
  let repo = 0;

  /** A fresh repository with `count` connected projects, so each case starts with no deployments. */
  const connect = async (count = 1) => {
    const name = `acme/dedupe-${++repo}`;
    const [made] = await gh.connect(m, orgId, name);
    const installation = await m.GithubInstallation.findOne({ org_id: orgId }).lean();
    idsOf.set(name, { installation: { id: installation!._id }, repository: { id: made.id, full_name: name } });
    const projects = [];
    for (let i = 0; i < count; i++) projects.push(await api.project(key, { github_repo: name }));
    return { name, ids: projects.map((p) => p.id as string) };
  };
  /** Delivers a push of `after` to `repoName` under a new delivery id each time. */
  const push = (repoName: string, after: string) => {
    // Each delivery a second later, so deployments sort in the order they were queued.
    api.clock.now = new Date(api.clock.now.getTime() + 1000);
    const body = JSON.stringify({ ref: 'refs/heads/main', after, deleted: false, ...idsOf.get(repoName) });
    return api.request('POST', '/webhooks/github', {
      raw: body,
      headers: { 'content-type': 'application/json', 'x-github-event': 'push', 'x-github-delivery': `dedupe-${++delivery}`, 'x-hub-signature-256': signBody(SECRET, Buffer.from(body)) },
    });
  };
  const rows = (projectId: string) => m.Deployment.find({ project_id: projectId }).sort({ started_at: 1, _id: 1 }).lean();
  const setStatus = (id: string, status: string, finishedAt: Date | null = null) => m.Deployment.updateOne({ _id: id }, { $set: { status, finished_at: finishedAt } });

  t.test('should answer a body re-sent under a new delivery id as a duplicate while its commit is queued, building or live', async (t) => {
    const { name, ids: [id] } = await connect();
    const first = await push(name, sha('a'));
    const [d] = await rows(id);
    t.same([first.status, first.body], [202, { status: 'queued', deployments: [d._id] }]);
    for (const status of ['queued', 'building', 'deployed']) {
      await setStatus(d._id, status, status === 'deployed' ? new Date() : null);
      const again = await push(name, sha('a'));
      t.same([again.status, again.body], [200, { status: 'duplicate' }], `while ${status}`);
    }
    t.same((await rows(id)).map((r) => [r._id, r.status]), [[d._id, 'deployed']], 'nothing queued');
  });

  t.test('should queue a commit again after its deployment failed', async (t) => {
    const { name, ids: [id] } = await connect();
    await push(name, sha('b'));
    const [failed] = await rows(id);
    await setStatus(failed._id, 'failed', new Date());
    const retry = await push(name, sha('b'));
    const after = await rows(id);
    t.same([retry.status, retry.body], [202, { status: 'queued', deployments: [after[1]._id] }]);
    t.same(after.map((r) => [r.status, r.commit_sha]), [['failed', sha('b')], ['queued', sha('b')]]);
  });

  t.test('should deploy a push back to an older commit once a newer one is live', async (t) => {
    const { name, ids: [id] } = await connect();
    await push(name, sha('c'));
    const [older] = await rows(id);
    await setStatus(older._id, 'deployed', new Date(Date.now() - 60_000));
    await push(name, sha('d'));
    const newer = (await rows(id))[1];
    await setStatus(newer._id, 'deployed', new Date());
    const back = await push(name, sha('c'));
    const latest = (await rows(id))[2];
    t.same([back.status, back.body], [202, { status: 'queued', deployments: [latest._id] }]);
    t.equal(latest.commit_sha, sha('c'));
  });

  t.test('should queue only the projects of the repository that lack the commit', async (t) => {
    const { name, ids: [has, lacks] } = await connect(2);
    await push(name, sha('e'));
    const [, lacking] = await Promise.all([rows(has), rows(lacks)]);
    await m.Deployment.deleteOne({ _id: lacking[0]._id });
    const again = await push(name, sha('e'));
    const queued = (await rows(lacks))[0];
    t.same([again.status, again.body], [202, { status: 'queued', deployments: [queued._id] }]);
    t.equal(await m.Deployment.countDocuments({ project_id: has }), 1, 'the project that has it gets nothing new');
  });

  t.test('should keep one deployment when re-sent bodies arrive at once', async (t) => {
    const { name, ids: [id] } = await connect();
    const answers = await Promise.all(Array.from({ length: 10 }, () => push(name, sha('f'))));
    const all = await rows(id);
    t.equal(all.length, 1);
    t.ok(answers.every((a) => (a.status === 202 && a.body.deployments[0] === all[0]._id) || (a.status === 200 && a.body.status === 'duplicate')));
  });
});
