/**
 * Test factory for reader authentication: the whole platform with a real builder worker, an
 * organization that has the feature, and a site whose pages are public, for every signed-in reader, or for the
 * `partners` or `staff` groups. Every gated page carries its marker in its title, body, heading
 * and code, so a leak shows as the marker. Sessions come from the JWT handoff, as a reader's
 * browser gets them.
 */
import http from 'node:http';
import { SignJWT } from 'jose';
import { startTestPlatform, type TestPlatform } from '../helpers/platform.ts';
import { setReaderAuth, type ReaderAuthBody } from '../../src/sites/reader-auth/reader-settings.ts';

export const HS_SECRET = 'a shared secret of the customer app, 32+ bytes long';
export const AUDIENCE = 'docs-readers';
export const MARKERS = { members: 'MEMBERMARKQZ', partners: 'PARTNERMARKQZ', staff: 'STAFFMARKQZ' } as const;

function page(title: string, marker: string, extra = ''): string {
  return `---\ntitle: ${title} ${marker}\ndescription: About ${marker}\n${extra}---\n\n## Heading ${marker}\n\nBody ${marker} text.\n\n\`\`\`js\nconst m = '${marker}';\n\`\`\`\n`;
}

export const SITE_FILES: Record<string, string> = {
  'docs.json': JSON.stringify({
    name: 'Gated Docs',
    navigation: { groups: [
      { group: 'Start', public: true, pages: ['index', 'open'] },
      { group: 'Members', pages: ['members'] },
      { group: 'Partners', groups: ['partners'], pages: ['partner-guide'] },
    ] },
    redirects: [{ source: '/old-partner', destination: '/partner-guide' }, { source: '/old-open', destination: '/open' }],
  }),
  'docs/index.mdx': '---\ntitle: Welcome\ndescription: Start here\n---\n\n## Welcome\n\nPublic text about rockets.\n\n<Update label="2025-01-01" description="Public update">Public news.</Update>\n',
  'docs/open.mdx': '---\ntitle: Open guide\n---\n\n## Open\n\nAnyone may read this.\n',
  'docs/members.mdx': page('Members', MARKERS.members, 'rss: true\n') + '\n<Update label="2025-02-01" description="Member update">Member news MEMBERMARKQZ.</Update>\n',
  'docs/partner-guide.mdx': page('Partner', MARKERS.partners, 'rss: true\n') + '\n<Update label="2025-03-01" description="Partner update">Partner news PARTNERMARKQZ.</Update>\n',
  'docs/staff-only.mdx': page('Staff', MARKERS.staff, 'groups: [staff]\n'),
};

/** The JWT handoff the site starts with. */
export const JWT_SETTINGS: ReaderAuthBody = { mode: 'jwt', scope: 'partial', algorithm: 'HS256', verification_key: HS_SECRET, audience: AUDIENCE, login_url: 'https://login.example.com/sign-in' };

export const PAGE_PATHS = ['/', '/open', '/members', '/partner-guide', '/staff-only'];

export interface ReaderSite {
  tp: TestPlatform;
  project: { id: string; slug: string };
  /** A raw request to the site (bytes kept), with the site's Host. */
  get(path: string, headers?: Record<string, string>, method?: string, body?: string): Promise<{ status: number; body: Buffer; headers: http.IncomingHttpHeaders }>;
  /** The working copy the site was pushed from. */
  wc: Awaited<ReturnType<TestPlatform['workingCopy']>>;
  /** The builder worker that built the site. */
  worker: ReturnType<TestPlatform['startWorker']>;
  /** Changes the settings (every session ends). */
  configure(settings: ReaderAuthBody): Promise<void>;
  /** A session cookie for `groups` (or none), through the JWT handoff. */
  session(groups: string[] | undefined): Promise<string>;
  close(): Promise<void>;
}

export async function hsToken(claims: Record<string, unknown>, opts: { secret?: string; audience?: string; expiresIn?: string | number } = {}): Promise<string> {
  return new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setIssuedAt().setAudience(opts.audience ?? AUDIENCE)
    .setExpirationTime(opts.expiresIn ?? '5m').sign(new TextEncoder().encode(opts.secret ?? HS_SECRET));
}

/** A site with reader authentication (`settings` over the JWT handoff), or without it (`settings` null), made of `files`. */
export async function startReaderSite(env: Record<string, string> = {}, settings: Partial<ReaderAuthBody> | null = {}, extra: Parameters<typeof startTestPlatform>[1] = {}, files: Record<string, string> = SITE_FILES): Promise<ReaderSite> {
  const tp = await startTestPlatform(env, extra);
  const created = (await tp.api('POST', '/projects', { name: 'Gated Docs', slug: 'gated-docs' })).body;
  const project = { id: created.id as string, slug: 'gated-docs' };
  const configure = async (body: ReaderAuthBody) => {
    await setReaderAuth({ m: tp.p.cp.m, now: new Date(), upgradeUrl: 'https://example.com/upgrade' }, tp.orgId, project.id, body);
  };
  if (settings) await configure({ ...JWT_SETTINGS, ...settings } as ReaderAuthBody);
  const worker = tp.startWorker({ POLL_MS: '50' });
  await worker.waitFor(/polling/);
  const wc = await tp.workingCopy(project.slug, files);
  const sha = await wc.push();
  const d = await tp.waitForDeployment(project.id, (x) => x.commit_sha === sha && ['deployed', 'failed'].includes(x.status), 300_000);
  if (d.status !== 'deployed') throw new Error(`deployment ${d.status}: ${d.error}`);
  const get: ReaderSite['get'] = (path, headers = {}, method = 'GET', body) => new Promise((resolve, reject) => {
    const req = http.request(`${tp.p.site.url}${path}`, { method, headers: { host: `${project.slug}.localhost`, ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks), headers: res.headers }));
    });
    req.on('error', reject);
    req.end(body);
  });
  return {
    tp, project, get, configure, wc, worker,
    async session(groups) {
      if (!groups) return '';
      const token = await hsToken(groups.length ? { sub: 'reader-1', groups } : { sub: 'reader-1' });
      const res = await get(`/_folio/auth/jwt?token=${token}&next=/`);
      const cookie = String(res.headers['set-cookie'] ?? '').split(';')[0];
      if (res.status !== 303 || !cookie.startsWith('folio_reader=')) throw new Error(`no session: ${res.status} ${res.body.toString('utf8')}`);
      return cookie;
    },
    close: () => tp.close(),
  };
}
