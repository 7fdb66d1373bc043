/**
 * No internal names in what people read. In real Chromium, an owner of an organization with a
 * project, deployments (every trigger, each outcome), a custom domain, another member, a pending
 * invitation and a week of traffic visits every page of the app's router (and the signed-out
 * pages), and the text of each page is scanned for snake_case identifiers (`max_projects`,
 * `llms_txt`). The same scan runs over the `message` of every dashboard API error the app shows:
 * plan limits, plan features, and the validation of the project, slug, role, sign-in, domain,
 * invitation, API key, claim and invitation-link forms. Against the dashboard before its label
 * catalogue it fails, naming `max_projects`, `llms_txt`, `single_sign_on`, `expires_at` and more.
 *
 * What is scanned: visible text and `title`, `aria-label`, `placeholder` and `alt` attributes, as
 * `document.body.innerText` would give them plus screen-reader-only text and every `<option>`.
 * Skipped: `<code>` and `<pre>`, which hold what people type or copy on purpose (commands, API
 * scopes, key prefixes). Allowed elsewhere: only the tokens of {@link ALLOWED}.
 */
import t from 'tap';
import type { Page } from 'playwright-core';
import { randomEvents } from '../helpers/analytics-events.ts';
import { addMember, launchBrowser } from '../helpers/dashboard-browser.ts';
import { startTestPlatform } from '../helpers/platform.ts';

const PASSWORD = 'a long enough passphrase';
const OWNER = 'words-owner@example.com';
const IDENTIFIER = /\b[a-z]+(?:_[a-z0-9]+)+\b/g;
/** Tokens people copy on purpose, allowed outside `<code>` too: an API key starts with `svc_`. */
const ALLOWED = [/^svc_/];

/** The snake_case tokens of `text` not on the allow-list. */
function identifiersIn(text: string): string[] {
  return [...text.matchAll(IDENTIFIER)].map((m) => m[0]).filter((w) => !ALLOWED.some((re) => re.test(w)));
}

/**
 * What a person reads on the page (see the file comment for what is skipped). A string, so the
 * TypeScript loader's helpers never reach the page.
 */
const READABLE_TEXT = `(() => {
  const out = [document.title];
  const skipped = 'code, pre, script, style, noscript, template';
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    if (!el || !n.textContent.trim() || el.closest(skipped)) continue;
    if (!el.closest('option') && !el.checkVisibility({ visibilityProperty: true })) continue;
    out.push(n.textContent);
  }
  for (const el of document.querySelectorAll('[title], [aria-label], [placeholder], [alt]')) {
    if (el.closest(skipped)) continue;
    for (const a of ['title', 'aria-label', 'placeholder', 'alt']) {
      const v = el.getAttribute(a);
      if (v) out.push(v);
    }
  }
  return out.join('\\n');
})()`;

function readableText(page: Page): Promise<string> {
  return page.evaluate(READABLE_TEXT) as Promise<string>;
}

t.test('dashboard: human words only', async (t) => {
  const tp = await startTestPlatform();
  t.teardown(() => tp.close());
  const m = tp.p.cp.m;
  const origin = new URL(tp.p.cp.apiUrl).origin;
  await addMember(m, tp.orgId, OWNER, 'owner', PASSWORD);
  const editorId = await addMember(m, tp.orgId, 'words-editor@example.com', 'editor', PASSWORD);

  // The dashboard API as the app calls it: session cookie, CSRF token on changes.
  const signIn = await fetch(`${origin}/dashboard/api/auth/sign-in`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: OWNER, password: PASSWORD }) });
  const cookie = signIn.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
  const { csrf_token: csrf } = await signIn.json() as { csrf_token: string };
  const dash = async (method: string, path: string, body?: unknown, signedIn = true) => {
    const res = await fetch(`${origin}/dashboard/api${path}`, {
      method, body: body === undefined ? undefined : JSON.stringify(body),
      headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(signedIn ? { cookie, 'x-csrf-token': csrf } : {}) },
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };

  const project = await dash('POST', '/projects', { name: 'Acme docs', slug: 'acme-docs' });
  t.equal(project.status, 201, 'project created');
  const projectId = project.body.id as string;
  const sha = (c: string) => c.repeat(40);
  const day = (d: number) => new Date(Date.now() - d * 3_600_000);
  const deployments = await m.Deployment.create([
    { project_id: projectId, status: 'deployed', trigger: 'push', commit_sha: sha('a'), started_at: day(5), finished_at: day(4.9), pages_total: 3, pages_success: 3, pages_failed: 0, branch: 'main' },
    { project_id: projectId, status: 'deployed', trigger: 'ci', commit_sha: sha('b'), started_at: day(4), finished_at: day(3.9), pages_total: 3, pages_success: 2, pages_failed: 1, branch: 'main', log: ['docs/intro.mdx:3:1: Unexpected character'] },
    { project_id: projectId, status: 'failed', trigger: 'webhook', commit_sha: sha('c'), started_at: day(3), finished_at: day(2.9), error: 'The build could not read docs.json', branch: 'main' },
    { project_id: projectId, status: 'deployed', trigger: 'manual', commit_sha: sha('d'), started_at: day(2), finished_at: day(1.9), pages_total: 3, pages_success: 3, pages_failed: 0, branch: 'main' },
  ]);
  // Traffic of the last days (every kind of event), so every breakdown has rows and columns.
  for (const [i, e] of randomEvents(7, 400, projectId).entries()) tp.p.analytics.record({ ...e, at: new Date(Date.now() - (1 + (i % 140)) * 3_600_000) });
  await tp.p.analytics.flush();
  t.equal((await dash('POST', `/projects/${projectId}/domains`, { hostname: 'docs.example.com' })).status, 201, 'domain added');
  t.equal((await dash('POST', '/invitations', { email: 'words-invited@example.com', role: 'viewer' })).status, 201, 'invitation made');
  t.equal((await dash('POST', '/api-keys', { name: 'CI key' })).status, 201, 'API key made');
  // From here on the organization is on the free plan, past its limits: the plan page shows them.
  await m.Organization.updateOne({ _id: tp.orgId }, { $set: { plan: 'free' } });

  const found: string[] = [];
  const scan = (where: string, text: string) => { for (const w of identifiersIn(text)) found.push(`${where}: ${w}`); };

  t.test('should say every error message the app shows in words', async (t) => {
    const p = `/projects/${projectId}`;
    const cases: Array<[method: string, path: string, body: unknown, status: number, signedIn?: boolean]> = [
      ['POST', '/projects', { name: 'Second docs' }, 402],
      ['POST', `${p}/domains`, { hostname: 'other.example.com' }, 402],
      ['POST', '/invitations', { email: 'words-more@example.com', role: 'viewer' }, 402],
      ['POST', '/roles', { name: 'Writers', permissions: ['projects.read'] }, 402],
      ['GET', '/audit-log', undefined, 402],
      ['GET', '/sso', undefined, 402],
      ['POST', '/projects', { name: '' }, 400],
      ['POST', '/projects', { name: 'Docs', slug: 'Bad Slug' }, 400],
      ['PATCH', p, { slug: 'Bad Slug' }, 400],
      ['PATCH', `/members/${editorId}`, { role: 'nobody' }, 400],
      ['POST', '/auth/sign-in', { email: 'not-an-email', password: 'x' }, 400, false],
      ['POST', `${p}/domains`, { hostname: 'not a host' }, 400],
      ['POST', `${p}/domains`, {}, 400],
      ['POST', '/invitations', { email: 'not-an-email', role: 'viewer' }, 400],
      ['POST', '/api-keys', { name: 'Old key', expires_at: '2000-01-01T00:00:00Z' }, 400],
      ['POST', '/api-keys', { name: 'Key', expires_at: 'tomorrow' }, 400],
      ['POST', '/api-keys', { name: 'Key', secret_value: 'mine' }, 400],
      ['POST', '/auth/claim', { token: 'bogus', email: 'someone@example.com', password: 'short' }, 400, false],
      ['POST', '/auth/claim', { token: 'bogus', email: 'someone@example.com', password: PASSWORD }, 400, false],
      ['POST', '/auth/invitation', { token: 'bogus' }, 400, false],
      ['POST', '/auth/accept-invite', { token: 'bogus', name: 'Someone', password: PASSWORD }, 400, false],
    ];
    for (const [method, path, body, status, signedIn] of cases) {
      const res = await dash(method, path, body, signedIn ?? true);
      t.equal(res.status, status, `${method} ${path} ${JSON.stringify(body ?? null)}: ${res.body?.message}`);
      scan(`${method} ${path} message`, String(res.body?.message ?? ''));
    }
  });

  t.test('should show no internal name on any page', async (t) => {
    const browser = await launchBrowser();
    t.teardown(() => browser.close());
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    // Generous: the dashboard is built on first need, which takes a while on a loaded machine.
    page.setDefaultTimeout(90_000);
    page.on('dialog', (d) => d.dismiss());
    const visit = async (path: string, ready: () => Promise<unknown>) => {
      await page.goto(`${origin}${path}`);
      await ready();
      // Let loads that follow the first render (tables, usage) settle.
      await page.waitForLoadState('networkidle');
      await page.getByText('Loading…').first().waitFor({ state: 'detached', timeout: 10_000 }).catch(() => {});
      scan(path, await readableText(page));
    };
    const h1 = (name: string | RegExp) => () => page.getByRole('heading', { level: 1, name }).waitFor();

    await visit('/sign-in', h1('Sign in to Folio'));
    await visit('/claim#token=bogus', h1('Claim your organization'));
    // The claim form's own checks, as shown.
    await page.getByLabel('Email').fill('someone@example.com');
    await page.getByLabel('New password').fill('short');
    await page.getByRole('button', { name: 'Set password and sign in' }).click();
    scan('/claim (short password)', await readableText(page));
    await page.getByLabel('New password').fill(PASSWORD);
    await page.getByLabel('Repeat the password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Set password and sign in' }).click();
    await page.getByRole('alert').first().waitFor();
    scan('/claim (refused link)', await readableText(page));
    await visit('/accept-invite#token=bogus', () => page.getByRole('alert').first().waitFor());

    await page.goto(`${origin}/sign-in`);
    await page.getByLabel('Email').fill(OWNER);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await h1('Projects')();

    const p = `/projects/${encodeURIComponent(projectId)}`;
    const pages: Array<[string, string | RegExp]> = [
      ['/projects', 'Projects'],
      ['/projects/new', 'New project'],
      [`${p}/settings`, /settings/i],
      [`${p}/deployments`, 'Deployments'],
      ...deployments.map((d): [string, RegExp] => [`${p}/deployments/${d._id}`, /Deployment/]),
      [`${p}/domains`, 'Custom domains'],
      [`${p}/analytics`, 'Analytics'],
      ['/settings/api-keys', 'API keys'],
      ['/settings/members', 'Members'],
      ['/settings/roles', 'Roles'],
      ['/settings/plan', 'Plan and usage'],
      ['/settings/github', /GitHub/],
      ['/settings/sso', /Single sign-on/],
    ];
    for (const [path, heading] of pages) await visit(path, h1(heading));

    // The plan page in plain words (innerText applies CSS text-transform, so "1 Of 1" would show).
    await visit('/settings/plan', h1('Plan and usage'));
    const plan = await page.locator('main').innerText();
    for (const words of ['1 of 1 used', 'MCP server', 'Custom domains', 'What each plan includes']) t.match(plan, words, `plan page says "${words}"`);
    // Every feature of the plan table is built now, so none is listed as coming soon.
    t.notMatch(plan, 'Coming soon', 'no feature is listed as coming soon');
    for (const built of ['Sign-in for readers', 'Chat notifications', 'White labeling', 'Web editor', 'Editing together', 'Self-updating docs']) {
      t.notMatch(plan, new RegExp(`Coming soon[^\\n]*${built}`), `${built} is built, so it is not listed as coming soon`);
      t.match(plan, built, `${built} is a row of the comparison`);
    }
    t.equal(await page.getByRole('link', { name: 'Compare plans and upgrade' }).first().getAttribute('href'), tp.p.cp.deps.env.UPGRADE_URL, 'links to upgrading');

    // Errors as the forms show them: a plan limit and a refused hostname on the domains page.
    await visit(`${p}/domains`, h1('Custom domains'));
    await page.getByLabel('Hostname').fill('other.example.com');
    await page.getByRole('button', { name: 'Add domain' }).click();
    await page.getByRole('alert').first().waitFor();
    scan('domains (plan limit)', await readableText(page));
    await page.getByLabel('Hostname').fill('not a host');
    await page.getByRole('button', { name: 'Add domain' }).click();
    await page.getByRole('alert').filter({ hasText: /hostname/i }).first().waitFor();
    scan('domains (bad hostname)', await readableText(page));
    // Every breakdown of the analytics page.
    await visit(`${p}/analytics`, h1('Analytics'));
    const by = page.getByLabel('By');
    for (const value of await by.locator('option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value))) {
      await by.selectOption(value);
      await page.waitForLoadState('networkidle');
      scan(`analytics by ${value}`, await readableText(page));
      if (value === 'pages') {
        const breakdown = page.getByRole('region', { name: 'Breakdown' });
        t.match(await breakdown.locator('thead').innerText(), /Page\s+Views\s+Unique visitors/, 'the breakdown has rows, with worded columns');
      }
    }
  });

  t.test('should find nothing', async (t) => {
    const unique = [...new Set(found)];
    t.comment(`${unique.length} internal names found`);
    t.same(unique, [], 'no snake_case identifier in what people read');
  });
});
