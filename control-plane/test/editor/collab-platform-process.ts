/**
 * A platform in its own process for the collaboration restart test: durable under DATA_DIR
 * (the embedded database on disk). With SETUP=1 it first makes a pro organization, a member and
 * a project. Prints `READY <json>` once it listens.
 */
import { createApiKey } from '../../src/auth/api-keys.ts';
import { createOrganization } from '../../src/admin/organizations.ts';
import { hashPassword } from '../../src/dashboard/passwords.ts';
import { parseEnv } from '../../src/env.ts';
import { startPlatform } from '../../src/platform.ts';

const env = parseEnv({ API_PORT: '0', SITE_PORT: '0', DATA_DIR: process.env.DATA_DIR!, WORKER_SECRET: 'test-worker-secret', LOG_LEVEL: 'silent' });
const p = await startPlatform({ env, port: 0, sitePort: 0, log: () => {} });
const info: Record<string, string> = { apiUrl: p.cp.apiUrl };
if (process.env.SETUP === '1') {
  const org = await createOrganization(p.cp.m, `restart-${process.pid}`, 'pro');
  const { key } = await createApiKey(p.cp.m, { orgId: org._id });
  const user = await p.cp.m.User.create({ email: 'restart@example.com', name: 'Ada', password_hash: await hashPassword(process.env.PASSWORD!), created_at: new Date() });
  await p.cp.m.Membership.create({ org_id: org._id, user_id: user._id, role: 'editor', created_at: new Date() });
  const res = await fetch(`${p.cp.apiUrl}/projects`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Docs', slug: `restart-${process.pid}` }) });
  Object.assign(info, { projectId: ((await res.json()) as { id: string }).id, email: 'restart@example.com', userId: user._id });
}
console.log(`READY ${JSON.stringify(info)}`);
process.on('SIGTERM', () => { void p.close().then(() => process.exit(0)); });
