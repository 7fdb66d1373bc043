/**
 * The bundled CLI (`npm run build-site`, packages left external) builds pages that read OpenAPI
 * and AsyncAPI documents: swagger-parser (CommonJS) `require()`s json-schema-ref-parser (an ES
 * module), and a static import of the latter beside it made Node abort the build.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { makeRepo, tempDir } from '../helpers/git-repo.ts';

const root = fileURLToPath(new URL('../../../', import.meta.url));

function run(args: string[], env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: root, env: { ...process.env, ...env } });
    let output = '';
    child.stdout.on('data', (c: Buffer) => { output += c.toString(); });
    child.stderr.on('data', (c: Buffer) => { output += c.toString(); });
    child.on('close', (code) => resolve({ code, output }));
  });
}

t.test('the bundled CLI builds OpenAPI and AsyncAPI pages', async (t) => {
  const dir = tempDir();
  makeRepo(dir, {
    'docs.json': JSON.stringify({ name: 'Small', navigation: [{ group: 'API', pages: ['users', 'chat'] }] }),
    'openapi.json': JSON.stringify({ openapi: '3.0.3', info: { title: 'S', version: '1' }, paths: { '/users': { get: { summary: 'List users', responses: { 200: { description: 'OK' } } } } } }),
    'asyncapi.yaml': 'asyncapi: 3.0.0\ninfo: { title: C, version: "1" }\nchannels:\n  chat: { address: /chat, messages: { said: { payload: { type: object, properties: { text: { type: string } } } } } }\n',
    'users.mdx': '---\nopenapi: GET /users\n---\n\nHi.\n',
    'chat.mdx': '---\nasyncapi: chat\n---\n\nChat.\n',
  });
  const out = tempDir();
  const result = await run(['scripts/bin/run-bundled.mjs', '--packages=external', 'builder/src/cli.ts', dir, '--out', out], { FOLIO_CLI_CACHE_DIR: tempDir() });
  t.notMatch(result.output, 'Cannot require() ES Module');
  t.equal(result.code, 0, 'the build succeeds');
  t.match(result.output, '2 pages, 2 ok, 0 failed');
  t.match(fs.readFileSync(path.join(out, 'users/index.html'), 'utf8'), '<code class="api-path">/users</code>');
  t.match(fs.readFileSync(path.join(out, 'chat/index.html'), 'utf8'), '<code class="api-path">/chat</code>');
});
