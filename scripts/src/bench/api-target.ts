/**
 * A benchmark target process: `bare` serves a bare Koa handler returning a fixed JSON list;
 * `api` serves the real control plane (in-memory embedded database) with one project and a
 * key. Prints one JSON line `{ port, key }` when ready.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { createApiKey, createOrganization, parseEnv, startControlPlane } from '@folio/control-plane';

const mode = process.argv[2];
if (mode === 'bare') {
  const app = new Koa();
  const body = { data: [{ id: '00000000-0000-4000-8000-000000000000', name: 'Docs', slug: 'docs', status: 'active' }], total: 1 };
  app.use((ctx) => { ctx.body = body; });
  const server = http.createServer(app.callback()).listen(0, '127.0.0.1', () => {
    console.log(JSON.stringify({ port: (server.address() as AddressInfo).port, key: '' }));
  });
} else {
  const cp = await startControlPlane({ env: parseEnv({ API_PORT: '0' }), inMemory: true, port: 0, log: () => {} });
  const org = await createOrganization(cp.m, 'bench', 'pro');
  const { key } = await createApiKey(cp.m, { orgId: org._id });
  await cp.m.Project.create({ org_id: org._id, name: 'Docs', slug: 'docs' });
  console.log(JSON.stringify({ port: cp.port, key }));
}
