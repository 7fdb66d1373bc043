import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import { startTestApi } from '../helpers/api.ts';
import { envWithGithub, startGithubStandIn } from '../helpers/github-stand-in.ts';
import { form, ICO, PNG, SVG, tempSiteStore } from './upload-fixtures.ts';

const h12 = (b: Buffer | string) => createHash('sha256').update(b).digest('hex').slice(0, 12);

t.test('asset API', async (t) => {
  const sites = tempSiteStore();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-data-'));
  const gh = await startGithubStandIn();
  t.teardown(() => gh.close());
  const env = envWithGithub(gh, { DATA_DIR: dataDir });
  const api = await startTestApi({ env, services: { siteStore: sites.store } });
  t.teardown(async () => { await api.close(); sites.cleanup(); fs.rmSync(dataDir, { recursive: true, force: true }); });
  const { key, orgId } = await api.tenant('enterprise');
  await gh.connect(api.cp.m, orgId, 'acme/docs');
  const managed = await api.project(key);
  const own = await api.project(key, { github_repo: 'acme/docs' });
  const git = (...args: string[]) => execFileSync('git', args, { cwd: path.join(dataDir, 'repos', `${managed.id}.git`) });
  const upload = (projectId: string, files: Parameters<typeof form>[0], fields: Record<string, string> = {}) =>
    api.request('POST', `/projects/${projectId}/asset`, { key, raw: form(files, fields) });

  t.test('should commit a managed project\'s asset under public/ and queue a sync', async (t) => {
    const res = await upload(managed.id, { file: { bytes: PNG, filename: 'brand.svg', type: 'image/svg+xml' } }, { dir: 'images/brand', name: 'logo-mark' });
    t.same([res.status, res.body], [201, { path: '/images/brand/logo-mark.png' }]);
    t.same(git('show', 'main:public/images/brand/logo-mark.png'), PNG, 'committed byte for byte');
    t.equal(git('log', '-1', '--format=%s', 'main').toString().trim(), 'Upload public/images/brand/logo-mark.png');
    const head = git('rev-parse', 'main').toString().trim();
    const queued = await api.cp.m.Deployment.findOne({ project_id: managed.id }).lean();
    t.same([queued?.status, queued?.commit_sha], ['queued', head]);
  });

  t.test('should default the folder to public/ and the name to the uploaded file\'s', async (t) => {
    const res = await upload(managed.id, { file: { bytes: ICO, filename: 'favicon.png' } });
    t.same([res.status, res.body], [201, { path: '/favicon.ico' }]);
    t.same(git('show', 'main:public/favicon.ico'), ICO);
  });

  t.test('should host an own-repository project\'s asset with the site under a content hash', async (t) => {
    const hostile = '<svg xmlns="http://www.w3.org/2000/svg"><a href="javascript:alert(1)"><path d="M0 0h4v4z"/></a></svg>';
    const clean = '<svg xmlns="http://www.w3.org/2000/svg"><a><path d="M0 0h4v4z"/></a></svg>';
    const res = await upload(own.id, { file: { bytes: hostile } }, { dir: 'og', name: 'card' });
    const urlPath = `/_folio/assets-uploaded/og/card-${h12(clean)}.svg`;
    t.same([res.status, res.body], [201, { path: urlPath }]);
    t.equal(fs.readFileSync(path.join(sites.root, 'sites', own.id, urlPath), 'utf8'), clean, 'stored sanitised');
    t.equal(await api.cp.m.Deployment.countDocuments({ project_id: own.id }), 0, 'nothing committed or queued');
  });

  t.test('should refuse every way out of public/, encoded or not, and store nothing', async (t) => {
    const before = git('rev-parse', 'main').toString();
    const inside = 'expected a folder inside public/';
    const cases: [Record<string, string>, string][] = [
      [{ dir: '../secrets' }, `dir: Unexpected ".." segment; ${inside}`],
      [{ dir: 'images/../../x' }, `dir: Unexpected ".." segment; ${inside}`],
      [{ dir: '..%2fsecrets' }, `dir: Unexpected ".." segment; ${inside}`],
      [{ dir: '%2e%2e/secrets' }, `dir: Unexpected ".." segment; ${inside}`],
      [{ dir: '%252e%252e%252fsecrets' }, `dir: Unexpected ".." segment; ${inside}`],
      [{ dir: '\uff0e\uff0e\uff0fsecrets' }, `dir: Unexpected ".." segment; ${inside}`],
      [{ dir: '/etc' }, `dir: Unexpected absolute path; ${inside}`],
      [{ dir: '%2fetc' }, `dir: Unexpected absolute path; ${inside}`],
      [{ dir: 'C:/Windows' }, `dir: Unexpected absolute path; ${inside}`],
      [{ dir: '..\\secrets' }, 'dir: Unexpected backslash; expected "/" between folders'],
      [{ dir: 'images%5c..%5c..' }, 'dir: Unexpected backslash; expected "/" between folders'],
      [{ dir: 'images\0' }, `dir: Unexpected NUL character; ${inside}`],
      [{ dir: 'images%00' }, `dir: Unexpected NUL character; ${inside}`],
      [{ dir: '%c0%ae%c0%ae' }, 'dir: Malformed percent-encoding; expected plain characters'],
      [{ dir: '.git/hooks' }, 'dir: Unexpected folder name ".git"; expected letters, digits, ".", "_" or "-", not starting with "." or "-"'],
      [{ name: '../../evil' }, 'name: Unexpected "/"; expected a file name without folders (use dir)'],
      [{ name: '..' }, 'name: Unexpected ".."; expected a file name'],
      [{ name: '%2e%2e' }, 'name: Unexpected ".."; expected a file name'],
      [{ name: 'a\\b' }, 'name: Unexpected backslash; expected "/" between folders'],
      [{ name: 'logo\0.svg' }, `name: Unexpected NUL character; ${inside}`],
      [{ name: 'my logo' }, 'name: Unexpected file name "my logo"; expected letters, digits, ".", "_" or "-", not starting with "." or "-"'],
    ];
    for (const [fields, message] of cases) {
      for (const project of [managed, own]) {
        const res = await upload(project.id, { file: { bytes: PNG } }, { name: 'ok', ...fields });
        t.same([res.status, res.body], [400, { error: 'invalid_request', message }], `${JSON.stringify(fields)} ${project === own ? 'own' : 'managed'}`);
      }
    }
    t.equal(git('rev-parse', 'main').toString(), before, 'no commit');
    t.same(fs.readdirSync(path.join(sites.root, 'sites', own.id, '_folio/assets-uploaded')), ['og'], 'nothing stored');
  });

  t.test('should refuse missing files, other types and other bodies', async (t) => {
    const cases: [Parameters<typeof api.request>[2], number, unknown][] = [
      [{ key, raw: form({}, { name: 'x' }) }, 400, { error: 'invalid_request', message: 'file: Required' }],
      [{ key, raw: form({ file: { bytes: 'plain text', filename: 'x.png', type: 'image/png' } }) }, 400, { error: 'invalid_request', message: 'file: Unexpected file type; expected SVG, PNG, ICO, WebP or JPEG' }],
      [{ key, raw: form({ file: { bytes: SVG } }, { extra: '1' }) }, 400, { error: 'invalid_request', message: 'extra: Unexpected key' }],
      [{ key, body: { name: 'x' } }, 415, { error: 'unsupported_media_type', message: 'Unexpected content type application/json; expected multipart/form-data' }],
    ];
    for (const [opts, status, body] of cases) {
      const res = await api.request('POST', `/projects/${managed.id}/asset`, opts);
      t.same([res.status, res.body], [status, body], JSON.stringify(body));
    }
  });
});
