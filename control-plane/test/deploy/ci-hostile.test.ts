import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { HARMLESS_PAGES, hostileRepo, leaks } from '../../../builder/test/helpers/hostile-pages.ts';
import { createApiKey } from '../../src/auth/api-keys.ts';
import { startGithubStandIn } from '../helpers/github-stand-in.ts';
import { startTestPlatform } from '../helpers/platform.ts';

const CI_MAIN = fileURLToPath(new URL('../../../builder/src/ci/main.ts', import.meta.url));

t.test('ci deploy of a hostile checkout', async (t) => {
  const gh = await startGithubStandIn();
  t.teardown(() => gh.close());
  const tp = await startTestPlatform(gh.env);
  await gh.connect(tp.p.cp.m, tp.orgId, 'acme/victim', 'acme/hostile');
  t.teardown(() => tp.close());
  const { key } = await createApiKey(tp.p.cp.m, { orgId: tp.orgId, scopes: ['deployments:trigger'] });
  const victim = (await tp.api('POST', '/projects', { name: 'Victim', slug: 'victim-ci', github_repo: 'acme/victim' })).body;
  const project = (await tp.api('POST', '/projects', { name: 'Hostile CI', slug: 'hostile-ci', github_repo: 'acme/hostile' })).body;
  const files = hostileRepo({ dataDir: tp.dataDir, victimProjectId: victim.id, internalUrl: tp.p.internalUrl });
  const wc = await tp.workingCopy('hostile-ci', files);

  const run = await new Promise<{ code: number | null; out: string }>((resolve) => {
    // As a CI step runs it: the runner's API key in the environment, beside the checkout.
    const child = spawn(process.execPath, ['--import=tsx', CI_MAIN, '--dir', wc.dir, '--project', project.id], {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, FOLIO_API_URL: `${tp.p.internalUrl}/v1`, FOLIO_API_KEY: key },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => { out += d; });
    child.stderr.on('data', (d: Buffer) => { out += d; });
    child.on('close', (code) => resolve({ code, out }));
  });
  const d = await tp.p.cp.m.Deployment.findOne({ project_id: project.id }).lean();
  const needles = [key, tp.key, 'FOLIO_API_KEY', 'test-worker-secret', 'uid=0', tp.dataDir];

  t.test('should deploy with every escaping page failed', async (t) => {
    t.equal(run.code, 0, run.out);
    const pages = Object.keys(files).filter((f) => f.endsWith('.mdx'));
    t.same([d!.status, d!.pages_total, d!.pages_success], ['deployed', pages.length, HARMLESS_PAGES.length]);
  });

  t.test('should let none of the runner\'s secrets or the host\'s data out', async (t) => {
    t.same(leaks(run.out, needles), [], 'the step\'s output');
    t.same(leaks(String(d!.error), needles), [], 'the deployment error');
    const site = path.join(tp.dataDir, 'sites', project.id);
    for (const e of fs.readdirSync(site, { recursive: true, withFileTypes: true }).filter((x) => x.isFile())) {
      const file = path.join(e.parentPath, e.name);
      t.same(leaks(fs.readFileSync(file, 'latin1'), needles.filter((n) => n !== tp.dataDir)), [], path.relative(site, file));
    }
    t.notOk(fs.existsSync(path.join(tp.dataDir, 'sites', victim.id, 'pwned.txt')), 'another site is untouched');
  });
});
