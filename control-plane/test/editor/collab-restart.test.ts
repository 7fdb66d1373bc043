/**
 * A restart loses nothing the server acknowledged: the platform runs in its own process on a
 * data directory, a client types, and once every update is acknowledged the process is killed
 * (SIGKILL, before the debounced store could run). A new process on the same data directory
 * serves the same text and mirrors it into the draft.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { startPlatformProcess } from '../helpers/platform-process.ts';
import { connectDatabase } from '../../src/db/connect.ts';
import { models } from '../../src/db/models/index.ts';
import { client, collabUrl, PASSWORD, until } from './collab-clients.ts';

const MAIN = fileURLToPath(new URL('./collab-platform-process.ts', import.meta.url));
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-collab-restart-'));
t.teardown(() => fs.rmSync(dataDir, { recursive: true, force: true }));

const start = (setup: boolean) => startPlatformProcess(t, MAIN, { DATA_DIR: dataDir, SETUP: setup ? '1' : '', PASSWORD });

async function signIn(apiUrl: string, email: string): Promise<string> {
  const res = await fetch(`${new URL(apiUrl).origin}/dashboard/api/auth/sign-in`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password: PASSWORD }) });
  return res.headers.getSetCookie().find((c) => c.startsWith('folio_session='))!.split(';')[0]!;
}

t.test('acknowledged edits survive a SIGKILL of the platform', async (t) => {
  const first = await start(true);
  const { projectId, email } = first.info;
  const origin1 = new URL(first.info.apiUrl!).origin;
  const cookie = await signIn(first.info.apiUrl!, email!);

  const a = client(collabUrl(origin1, projectId!), 'restart.mdx', { cookie, origin: origin1 });
  t.same(await a.ready, { scope: 'read-write' });
  await until(() => a.provider.isSynced, 'sync');
  const typed = ['# Restart\n', 'Typed before the crash.\n', 'And one more line.\n'];
  for (const piece of typed) { a.text.insert(a.text.length, piece); await new Promise((r) => setTimeout(r, 30)); }
  await until(() => !a.provider.hasUnsyncedChanges, 'every update to be acknowledged');
  first.child.kill('SIGKILL');
  await new Promise((r) => first.child.once('exit', r));
  a.destroy();

  const second = await start(false);
  const origin2 = new URL(second.info.apiUrl!).origin;
  // The session survives the restart too (it is in the database).
  const b = client(collabUrl(origin2, projectId!), 'restart.mdx', { cookie, origin: origin2 });
  t.same(await b.ready, { scope: 'read-write' });
  await until(() => b.provider.isSynced, 'sync after the restart');
  t.equal(b.text.toString(), typed.join(''), 'every acknowledged edit is there');

  // The recovered text reaches the draft, which publish and preview read.
  // (Read through the running platform's database: the embedded server is found through the data directory.)
  const db = await connectDatabase({ dataDir });
  await until(async () => (await models(db.connection).EditorDraft.findOne({ project_id: projectId, path: 'restart.mdx' }).lean())?.content === typed.join(''), 'the draft to hold the recovered text');
  t.pass('the draft holds the recovered text');
  await db.close();
  b.destroy();
  second.child.kill('SIGTERM');
  await new Promise((r) => second.child.once('exit', r));
});
