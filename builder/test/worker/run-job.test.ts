/**
 * A job run against a recording control-plane stand-in on 127.0.0.1: the live build log is sent
 * while the build runs (steps as they end, failed pages as they are known), in batches under the
 * protocol's limits, with the job's token and fencing, and all of it before the final report.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import t from 'tap';
import { closePagefind } from '../../src/outputs/pagefind-shard.ts';
import { createLocalDirStore } from '../../src/store/local-dir-store.ts';
import { ControlPlaneClient, type BuildJob } from '../../src/worker/control-plane-client.ts';
import { MAX_LOG_LINES_PER_REQUEST, MAX_LOG_LINE_LENGTH } from '../../src/worker/protocol.ts';
import { runJob } from '../../src/worker/run-job.ts';
import { tempDir, writeFiles } from '../helpers/git-repo.ts';

t.teardown(closePagefind);

const JOB: BuildJob = { deployment_id: 'd1', fencing: 3, token: 'bt_test', lease_ms: 30_000, commit_sha: null, project: { id: 'p1', slug: 'p' }, site: { prefix: 'sites/p1/', url: 'https://p.example' } };

/** A control plane stand-in recording every request's route, token and body; answers 204. */
async function recorder() {
  const requests: Array<{ route: string; authorization?: string; body: any }> = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      requests.push({ route: req.url!.replace(`/internal/v1/jobs/${JOB.deployment_id}/`, ''), authorization: req.headers.authorization, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
      res.statusCode = 204;
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { requests, client: new ControlPlaneClient(url), close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

t.test('run job', async (t) => {
  await t.test('should send step lines and failed pages while it builds, before the final report', async (t) => {
    const cp = await recorder();
    t.teardown(cp.close);
    const dir = tempDir();
    writeFiles(dir, {
      'docs.json': JSON.stringify({ name: 'Docs', navigation: [{ group: 'Guides', pages: ['index', 'broken'] }] }),
      'index.mdx': '---\ntitle: Home\n---\n\nHello.\n',
      'broken.mdx': '---\ntitle: Broken\n---\n\nText {unclosed\n',
    });
    const result = await runJob(JOB, { client: cp.client, store: createLocalDirStore(tempDir()), source: { kind: 'dir', dir }, logIntervalMs: 20 });
    t.equal(result, 'reported');
    const routes = cp.requests.map((r) => r.route).filter((r) => r !== 'heartbeat');
    const complete = routes.indexOf('complete');
    t.equal(complete, routes.length - 1, 'the final report comes last');
    const logs = cp.requests.filter((r) => r.route === 'log');
    t.ok(logs.length >= 1, `${logs.length} log requests`);
    t.ok(logs.every((r) => r.authorization === 'Bearer bt_test' && r.body.fencing === 3 && Object.keys(r.body).length === 2), 'each with the job\'s token and fencing, nothing else');
    t.ok(logs.every((r) => r.body.lines.length >= 1 && r.body.lines.length <= MAX_LOG_LINES_PER_REQUEST && r.body.lines.every((l: string) => l.length <= MAX_LOG_LINE_LENGTH)), 'within the protocol\'s limits');
    const lines: string[] = logs.flatMap((r) => r.body.lines);
    // Step times vary: the lines are compared without them.
    const shape = lines.map((l) => l.replace(/ at \d+ ms$/, ' at … ms'));
    t.same(shape.filter((l) => l.startsWith('step ')), [
      'step clone: started', 'step clone: done at … ms', 'step plan: done at … ms', 'step compile: done at … ms', 'step render: done at … ms',
      'step exports: done at … ms', 'step index: done at … ms', 'step publish: done at … ms',
    ]);
    const report = cp.requests[cp.requests.length - 1].body;
    t.same(report.pages_failed, 1);
    const failed = lines.filter((l) => l.startsWith('error: '));
    t.same(failed, [`error: ${report.error}`], 'the failed page as soon as it was known, as the report names it');
    t.ok(shape.indexOf(failed[0]) < shape.indexOf('step compile: done at … ms'), 'sent before the compile step ended');
  });
});
