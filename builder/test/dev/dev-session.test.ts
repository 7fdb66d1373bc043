import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { createCompiler } from '../../src/sandbox/index.ts';
import { createDevSession } from '../../src/dev/dev-session.ts';
import { openWorkingTree } from '../../src/dev/working-tree.ts';
import { closePagefind } from '../../src/outputs/pagefind-shard.ts';
import { createLocalDirStore } from '../../src/store/local-dir-store.ts';
import { tempDir } from '../helpers/git-repo.ts';

const fixture = fileURLToPath(new URL('../fixtures/broken-links', import.meta.url));

t.teardown(closePagefind);

t.test('dev-session', async (t) => {
  t.test('should print broken links in the terminal once, and again when an edit changes them', async (t) => {
    const dir = tempDir();
    fs.cpSync(fixture, dir, { recursive: true });
    const compiler = await createCompiler();
    t.teardown(() => compiler.close());
    const lines: string[] = [];
    const session = createDevSession({ tree: await openWorkingTree(dir), store: createLocalDirStore(tempDir()), siteUrl: 'http://127.0.0.1:4300', compiler, log: (l) => lines.push(l) });
    t.teardown(() => session.close());
    await session.ready;
    await session.idle();
    const warnings = () => lines.filter((l) => l.startsWith('  warning: '));
    t.same(warnings(), [
      '  warning: docs/guides/install.mdx:7:55: Unexpected link to /nowhere; expected a page, a file of the site or a redirect source',
      '  warning: docs/index.mdx:20:1: Unexpected link to /guides/uninstall; expected a page, a file of the site or a redirect source',
      '  warning: docs/index.mdx:20:39: Unexpected anchor #last-steps; expected the id of a heading or element on /guides/install',
      '  warning: docs/index.mdx:22:1: Unexpected link to /gone; expected a page, a file of the site or a redirect source',
      '  warning: docs/index.mdx:26:1: Unexpected link to /also-gone; expected a page, a file of the site or a redirect source',
    ]);
    lines.length = 0;
    // The anchor appears: the link to it is fine now, and the remaining warnings are printed again.
    fs.appendFileSync(path.join(dir, 'docs/guides/install.mdx'), '\n## Last steps\n\nDone.\n');
    session.changed(['docs/guides/install.mdx']);
    await session.idle();
    t.equal(warnings().length, 4);
    t.notOk(warnings().some((l) => l.includes('#last-steps')));
    lines.length = 0;
    // A change that leaves the links as they were prints none.
    fs.appendFileSync(path.join(dir, 'docs/guides/install.mdx'), '\nMore.\n');
    session.changed(['docs/guides/install.mdx']);
    await session.idle();
    t.same(warnings(), []);
    t.match(lines.join('\n'), /built 3 pages/);
  });
});

t.test('dev-session fast path', async (t) => {
  t.test('should show an edited page that names an API operation with the operation, before the full build', async (t) => {
    const dir = tempDir();
    const spec = { openapi: '3.0.3', info: { title: 'Shop', version: '1' }, paths: { '/users': { get: { summary: 'List users', parameters: [{ name: 'limit', in: 'query', schema: { type: 'integer' } }], responses: { 200: { description: 'OK' } } } } } };
    fs.writeFileSync(path.join(dir, 'docs.json'), JSON.stringify({ name: 'Shop', navigation: [{ group: 'API', pages: ['users'] }] }));
    fs.writeFileSync(path.join(dir, 'openapi.json'), JSON.stringify(spec));
    fs.writeFileSync(path.join(dir, 'users.mdx'), '---\nopenapi: GET /users\n---\n\nFirst words.\n');
    const compiler = await createCompiler();
    t.teardown(() => compiler.close());
    const out = tempDir();
    const inner = createLocalDirStore(out);
    const written: string[] = [];
    const store = { ...inner, put: (key: string, bytes: Uint8Array, o?: Parameters<typeof inner.put>[2]) => { if (key === 'users/index.html') written.push(Buffer.from(bytes).toString('utf8')); return inner.put(key, bytes, o); } };
    const session = createDevSession({ tree: await openWorkingTree(dir), store, siteUrl: 'http://127.0.0.1:4300', compiler });
    t.teardown(() => session.close());
    await session.ready;
    await session.idle();
    written.length = 0;
    fs.writeFileSync(path.join(dir, 'users.mdx'), '---\nopenapi: GET /users\n---\n\nEdited words.\n');
    session.changed(['users.mdx']);
    await session.idle();
    t.equal(written.length, 2, 'written by the fast path, then by the full build');
    t.match(written[0], 'Edited words.', 'the first write is the fast path\'s');
    t.match(written[0], '<tr id="param-query-limit">', 'with the operation\'s parameters');
  });
});
