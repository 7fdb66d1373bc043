/**
 * Roles in real Chromium: an enterprise owner creates a custom role on the Roles page, gives it
 * to a member on the Members page and gives a SCIM group a role; a viewer sees none of the
 * controls the server would refuse. Checked with axe-core and at 390 px.
 */
import t from 'tap';
import type { Page } from 'playwright-core';
import { accessModels } from '../../src/db/models/access-models.ts';
import { addMember, launchBrowser, overflowing, seriousViolations, signedInPage } from '../helpers/dashboard-browser.ts';
import { startTestPlatform } from '../helpers/platform.ts';

const PASSWORD = 'a long enough passphrase';

t.test('dashboard: roles', async (t) => {
  const tp = await startTestPlatform();
  t.teardown(() => tp.close());
  const m = tp.p.cp.m;
  const origin = new URL(tp.p.cp.apiUrl).origin;
  const person = (email: string, role: string) => addMember(m, tp.orgId, email, role, PASSWORD);
  await person('roles-owner@example.com', 'owner');
  const viewerId = await person('roles-viewer@example.com', 'viewer');
  const group = await fetch(`${tp.p.cp.apiUrl}/scim/v2/Groups`, {
    method: 'POST', headers: { authorization: `Bearer ${tp.key}`, 'content-type': 'application/scim+json' },
    body: JSON.stringify({ schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'], displayName: 'Technical writers' }),
  }).then((r) => r.json() as Promise<{ id: string }>);

  const browser = await launchBrowser();
  t.teardown(() => browser.close());
  const errors: string[] = [];
  const open = (email: string): Promise<Page> => signedInPage(browser, origin, email, PASSWORD, errors, { consoleErrors: true });

  t.test('should let the owner create a custom role, give it to a member and map a SCIM group', async (t) => {
    const page = await open('roles-owner@example.com');
    await page.getByRole('link', { name: 'Roles' }).click();
    await page.getByRole('heading', { level: 1, name: 'Roles' }).waitFor();
    const form = page.getByRole('region', { name: 'Create a custom role' });
    await form.getByLabel('Role name').fill('Writers');
    await form.getByRole('checkbox', { name: /content\.edit/ }).check();
    await form.getByRole('checkbox', { name: /projects\.read/ }).check();
    await form.getByRole('button', { name: 'Create role' }).click();
    const row = page.locator('.rows li', { has: page.locator('strong', { hasText: /^Writers$/ }) });
    await row.waitFor();
    t.match(await row.textContent(), 'projects.read, content.edit');
    const role = await (await accessModels(m)).CustomRole.findOne({ org_id: tp.orgId, name: 'Writers' }).lean();
    t.same(role?.permissions, ['projects.read', 'content.edit']);

    await page.getByLabel('Role of the group Technical writers').selectOption({ label: 'Editor' });
    await t.resolves(waitFor(async () => (await (await accessModels(m)).ScimGroup.findById(group.id).lean())?.role === 'editor'), 'the group carries Editor');
    t.same(await seriousViolations(page), [], 'roles: no serious accessibility violation');
    await page.setViewportSize({ width: 390, height: 844 });
    t.same(await overflowing(page), [], 'roles: nothing overflows at 390 px');
    await page.setViewportSize({ width: 1280, height: 900 });

    await page.getByRole('link', { name: 'Members' }).click();
    await page.getByLabel('Role of roles-viewer@example.com').selectOption({ label: 'Writers' });
    await t.resolves(waitFor(async () => (await m.Membership.findOne({ org_id: tp.orgId, user_id: viewerId }).lean())?.role === `custom:${role!._id}`), 'the member holds Writers');
    t.same(await seriousViolations(page), [], 'members: no serious accessibility violation');
  });

  t.test('should show a viewer none of the controls the server would refuse', async (t) => {
    await person('roles-reader@example.com', 'viewer');
    const page = await open('roles-reader@example.com');
    t.equal(await page.getByRole('link', { name: 'New project' }).count(), 0, 'no New project');
    await page.getByRole('link', { name: 'Members' }).click();
    await page.getByRole('heading', { level: 2, name: 'People' }).waitFor();
    await page.locator('.rows li').first().waitFor();
    t.same([await page.getByRole('region', { name: 'Invite someone' }).count(), await page.locator('select').count(), await page.getByRole('button', { name: 'Remove' }).count()], [0, 0, 0]);
    await page.getByRole('link', { name: 'Roles' }).click();
    await page.locator('.rows li', { has: page.locator('strong', { hasText: /^Writers$/ }) }).waitFor();
    t.same([await page.getByRole('button', { name: 'Create role' }).count(), await page.getByRole('button', { name: 'Edit' }).count(), await page.locator('select').count()], [0, 0, 0]);
    t.equal(await page.getByRole('link', { name: 'SSO' }).count(), 0, 'SSO is not in the navigation');
  });

  t.test('should log no console error', async (t) => {
    t.same(errors, []);
  });
});

/** Polls `check` until it holds (the page saves in the background); rejects after 30 s. */
async function waitFor(check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 300; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('condition not met in 30 s');
}
