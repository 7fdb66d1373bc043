/**
 * MDX pages that name an API operation in their frontmatter (Mintlify's `openapi:` and
 * `openapi-schema:`) render the operation's generated view around their own content: in the
 * HTML, the `.md` export, `llms-full.txt` and the search text; unknown operations fail as the
 * page's error, positioned on the key, naming the document and what it has.
 */
import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { build, type BuildOptions } from '../../src/build.ts';
import { frontmatterOpenapi } from '../../src/api/frontmatter-claims.ts';
import { readOpenapiFrontmatter } from '../../src/api/frontmatter-ref.ts';
import { splitAside } from '../../src/api/page-aside.ts';
import { parseConfig } from '../../src/config/parse-config.ts';
import { BuilderError } from '../../src/errors.ts';
import { closePagefind } from '../../src/outputs/pagefind-shard.ts';
import { createLocalDirStore } from '../../src/store/local-dir-store.ts';
import type { CompiledPage } from '../../src/types.ts';
import { commitFiles, makeRepo, tempDir } from '../helpers/git-repo.ts';

t.teardown(closePagefind);

/** An OpenAPI 3.1 document: two paths, a webhook and a named schema. */
const OPENAPI = JSON.stringify({
  openapi: '3.1.0', info: { title: 'Shop', version: '1' },
  servers: [{ url: 'https://api.shop.example/v1' }],
  paths: {
    '/users': {
      get: {
        summary: 'List users', tags: ['Users'], description: 'Every user of the shop.',
        parameters: [{ name: 'limit', in: 'query', schema: { type: 'integer' }, description: 'Users per page' }],
        responses: { 200: { description: 'The users', content: { 'application/json': { schema: { type: 'array', items: { $ref: '#/components/schemas/User' } } } } } },
      },
      post: {
        summary: 'Create a user', tags: ['Users'],
        requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/User' } } } },
        responses: { 201: { description: 'Created' } },
      },
    },
    '/users/{id}': {
      get: { summary: 'Get a user', description: 'Fetches one user\n  by id.', parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }], responses: { 200: { description: 'The user' } } },
    },
  },
  webhooks: {
    orderUpdated: { post: { summary: 'Order updated', requestBody: { content: { 'application/json': { schema: { type: 'object', properties: { orderId: { type: 'string', description: 'The order' } } } } } }, responses: { 200: { description: 'Received' } } } },
  },
  components: {
    schemas: {
      User: { type: 'object', description: 'A customer account.', required: ['email'], properties: { email: { type: 'string', format: 'email' }, nickname: { type: 'string', description: 'Shown to others' } } },
    },
  },
});

/** A YAML document in a folder, named by pages with its path. */
const V2_YAML = `openapi: 3.0.3
info: { title: V2, version: "2" }
servers: [{ url: "https://v2.shop.example" }]
paths:
  /orders:
    post:
      summary: Place an order
      parameters:
        - { name: Idempotency-Key, in: header, required: true, schema: { type: string } }
      responses:
        "200": { description: Placed }
`;

const page = (frontmatter: string, body = '') => `---\n${frontmatter}\n---\n\n${body}`;

const FILES = {
  'openapi.json': OPENAPI,
  'specs/v2.yaml': V2_YAML,
  'index.mdx': page('title: Home', 'Welcome.\n'),
  'users/list.mdx': page('openapi: GET /users', 'Users are listed newest first.\n'),
  // The page's description says what the operation's does: said once.
  'users/one.mdx': page('description: Fetches one user by id.\nopenapi: openapi.json GET /users/{id}'),
  'users/create.mdx': page('title: Create one\nopenapi: openapi.json POST /users', [
    '## Before you start', '', 'You need an admin key.', '',
    '<RequestExample>', '', '```bash Own sample', 'curl -X POST https://api.shop.example/v1/users', '```', '', '</RequestExample>', '',
  ].join('\n')),
  // Quoted, and with a trailing slash the document's path does not have.
  'orders.mdx': page('openapi: "specs/v2.yaml POST /orders/"'),
  'hooks/order.mdx': page('openapi: openapi.json webhook orderUpdated'),
  'schemas/user.mdx': page('openapi-schema: User'),
  'side.mdx': page('title: Side', 'Text first.\n\n<Panel>\n\nSide note.\n\n</Panel>\n\nText after.\n'),
  // A translated copy of the document that lags behind: it lacks GET /users/{id}.
  'translated/openapi.json': JSON.stringify({ ...JSON.parse(OPENAPI), paths: { '/users': JSON.parse(OPENAPI).paths['/users'] } }),
  'translated/user.mdx': page('title: Un usuario\nopenapi: /translated/openapi.json GET /users/{id}'),
};

const NAV = ['index', 'users/list', 'users/one', 'users/create', 'orders', 'hooks/order', 'schemas/user', 'side', 'translated/user'];

const read = (out: string, p: string) => fs.readFileSync(path.join(out, p), 'utf8');

t.test('API pages from frontmatter', async (t) => {
  await t.test('should read the frontmatter forms, with and without a document, and webhooks', async (t) => {
    t.same(readOpenapiFrontmatter('GET /users'), { ref: { method: 'GET', path: '/users' } });
    t.same(readOpenapiFrontmatter('openapi.json post /users'), { file: 'openapi.json', ref: { method: 'POST', path: '/users' } });
    t.same(readOpenapiFrontmatter('webhook orderUpdated'), { ref: { webhook: 'orderUpdated' } });
    t.same(readOpenapiFrontmatter('/v2/api.yaml webhook orderUpdated'), { file: '/v2/api.yaml', ref: { webhook: 'orderUpdated' } });
    t.same(readOpenapiFrontmatter('FETCH /users'), { problem: 'Unexpected "FETCH /users"; expected "METHOD /path", "file METHOD /path" or "webhook name", such as GET /users or openapi.json GET /users' });
    t.same(readOpenapiFrontmatter(['GET /a']), { problem: 'Unexpected list; expected "METHOD /path", "file METHOD /path" or "webhook name", such as GET /users or openapi.json GET /users' });
    t.equal(frontmatterOpenapi('---\ntitle: A\nopenapi: "specs/v2.yaml POST /orders"\n---\n'), 'specs/v2.yaml POST /orders');
    t.equal(frontmatterOpenapi('---\ntitle: A\n---\nopenapi: GET /x\n'), undefined, 'only the frontmatter counts');
  });

  await t.test('should move top-level examples and panels to the side column, and leave nested ones', async (t) => {
    const html = '<p>a</p><div class="code-group api-example" data-example="request"><pre>x</pre></div><div class="tabs"><aside class="panel">in</aside></div><aside class="panel">p</aside>';
    t.same(splitAside(html), {
      main: '<p>a</p><div class="tabs"><aside class="panel">in</aside></div>',
      aside: '<div class="code-group api-example" data-example="request"><pre>x</pre></div><aside class="panel">p</aside>',
    });
    t.same(splitAside('<p>plain</p>'), { main: '<p>plain</p>', aside: '' });
  });

  await t.test('should render each form, export it and index it; fail an unknown operation with its position', async (t) => {
    const dir = tempDir();
    makeRepo(dir, {
      ...FILES,
      'docs.json': JSON.stringify({ name: 'Shop', navigation: [{ group: 'Docs', pages: [...NAV, 'bad'] }] }),
      'bad.mdx': page('title: Bad\nopenapi: openapi.json GET /userz'),
    });
    const out = tempDir();
    const pages = new Map<string, CompiledPage>();
    const opts = (): BuildOptions => ({
      source: { kind: 'dir', dir }, store: createLocalDirStore(out), siteUrl: 'https://shop.example', year: 2026,
      onPages: async (changes) => { for await (const batch of changes.upserted()) for (const u of batch) pages.set(u.page.urlPath, u.page); },
    });
    const result = await build(opts());
    t.same(result.errors, [{
      sourcePath: 'bad.mdx', line: 3, column: 1,
      message: 'openapi: Unexpected "GET /userz": openapi.json has no such operation; expected one of GET /users, POST /users, GET /users/{id}, webhook orderUpdated',
    }]);
    t.equal(result.pagesFailed, 1);

    // Without a document named and without api.openapi: found in the repository's documents.
    const list = read(out, 'users/list/index.html');
    t.match(list, '<span class="api-method" data-method="GET">GET</span> <code class="api-path">/users</code>');
    t.match(list, '<tr id="param-query-limit">');
    t.match(list, '<title>List users', 'the title is the operation summary when the page has none');
    t.ok(list.indexOf('Every user of the shop.') < list.indexOf('Users are listed newest first.') && list.indexOf('Users are listed newest first.') < list.indexOf('id="param-query-limit"'),
      'the page content comes after the endpoint and description, before the parameters');
    t.match(list, '<section class="api-try" data-api-try data-method="GET" data-path="/users"', 'Try it is offered');
    const listMd = read(out, 'users/list.md');
    t.match(listMd, '# List users\n');
    t.match(listMd, 'Users are listed newest first.');
    t.match(listMd, '`GET /users`');
    t.match(listMd, '| `limit` | query | `integer` | no | Users per page |');
    t.match(pages.get('/users/list')!.searchText, 'GET /users');
    t.match(pages.get('/users/list')!.searchText, 'limit Users per page');
    t.same(pages.get('/users/list')!.apiOperation, { document: 'openapi.json', operation: 'GET /users' });

    const one = read(out, 'users/one/index.html');
    t.equal(one.split('Fetches one user').length - 1, 3, 'under the title and in the description meta tags, not again in the body');
    t.notMatch(one, '<p>Fetches one user');

    // The page's own example replaces the generated request samples, in the side column.
    const create = read(out, 'users/create/index.html');
    t.match(create, '<title>Create one');
    const aside = create.slice(create.indexOf('<div class="api-aside">'));
    t.match(aside, 'Own sample');
    t.notMatch(create, 'cURL', 'the generated request samples give way to the page\'s own');
    t.match(create, 'id="request-body"');
    t.match(create, 'email');

    // A YAML document named with its folder, and a header parameter.
    const orders = read(out, 'orders/index.html');
    t.match(orders, '<code class="api-path">/orders</code>');
    t.match(orders, 'Idempotency-Key');
    t.match(read(out, 'orders.md'), '| `Idempotency-Key` | header | `string` | yes |');

    // An OpenAPI 3.1 webhook: its payload, no Try it.
    const hook = read(out, 'hooks/order/index.html');
    t.match(hook, '<span class="api-method" data-method="WEBHOOK">WEBHOOK</span> <code class="api-path">orderUpdated</code>');
    t.match(hook, 'orderId');
    t.notMatch(hook, 'data-api-try');

    // A schema on its own page.
    const schema = read(out, 'schemas/user/index.html');
    t.match(schema, '<code class="api-path">User</code>');
    t.match(schema, 'A customer account.');
    t.match(schema, 'nickname');
    t.match(read(out, 'schemas/user.md'), '- `email` (string<email>, required)');

    // A page with a panel and no operation gets the side column too.
    const side = read(out, 'side/index.html');
    t.match(side, /<div class="api-aside"><aside class="panel">[\s\S]*Side note/);
    t.ok(side.indexOf('Text after.') < side.indexOf('<div class="api-aside">'));

    // The named document lacks the operation: taken from the repository's document that has it.
    t.match(read(out, 'translated/user/index.html'), '<code class="api-path">/users/{id}</code>');
    t.same(pages.get('/translated/user')!.apiOperation, { document: 'openapi.json', operation: 'GET /users/{id}' });

    const full = read(out, 'llms-full.txt');
    t.match(full, '`POST /orders`');
    t.match(full, '| `limit` | query | `integer` | no | Users per page |');

    // Fixing the document compiles the failed page again (the document is one of its dependencies).
    const fixed = JSON.parse(OPENAPI);
    fixed.paths['/userz'] = { get: { summary: 'Typo kept', responses: { 200: { description: 'OK' } } } };
    commitFiles(dir, { 'openapi.json': JSON.stringify(fixed) }, 'add /userz');
    const second = await build(opts());
    t.same(second.errors, []);
    t.match(read(out, 'bad/index.html'), '<code class="api-path">/userz</code>');
  });

  await t.test('should say where it looked when no document has the operation', async (t) => {
    const dir = tempDir();
    makeRepo(dir, {
      'docs.json': JSON.stringify({ name: 'None', navigation: [{ group: 'Docs', pages: ['index'] }] }),
      'index.mdx': page('openapi: GET /users'),
    });
    const result = await build({ source: { kind: 'dir', dir }, store: createLocalDirStore(tempDir()), siteUrl: 'https://none.example', year: 2026 });
    t.same(result.errors, [{
      sourcePath: 'index.mdx', line: 2, column: 1,
      message: 'openapi: Unexpected "GET /users": no OpenAPI document to look it up in; expected the document\'s path before it (such as openapi.json GET /users), api.openapi in docs.json, or an openapi.json or openapi.yaml file in the repository',
    }]);
  });

  await t.test('should not generate a second page for an operation a page documents (navigation openapi)', async (t) => {
    const dir = tempDir();
    makeRepo(dir, {
      'docs.json': JSON.stringify({ name: 'Nav', navigation: [{ group: 'Docs', pages: ['index', 'users/list'] }, { group: 'API', openapi: 'openapi.json' }] }),
      'openapi.json': OPENAPI,
      'index.mdx': page('title: Home', 'Welcome.\n'),
      'users/list.mdx': page('openapi: GET /users', 'Mine.\n'),
    });
    const out = tempDir();
    const result = await build({ source: { kind: 'dir', dir }, store: createLocalDirStore(out), siteUrl: 'https://nav.example', year: 2026 });
    t.same(result.errors, []);
    t.notOk(fs.existsSync(path.join(out, 'api-reference/users/list-users/index.html')), 'no generated twin of GET /users');
    t.ok(fs.existsSync(path.join(out, 'api-reference/users/create-a-user/index.html')), 'the other operations are generated');
    t.match(read(out, 'users/list/index.html'), 'Mine.');
    t.notMatch(read(out, 'index.html'), '/api-reference/users/list-users');
  });
});

t.test('docs.json api settings', async (t) => {
  const location = { siteUrl: 'https://a.example', basePath: '' };
  const parse = (api: unknown) => parseConfig(JSON.stringify({ name: 'A', api }), location);

  await t.test('should read playground, examples and params, with warnings for what does not carry over', async (t) => {
    const c = parse({ playground: { display: 'none', proxy: true }, examples: { languages: ['python', 'curl', 'go'], defaults: 'all', prefill: true, autogenerate: true }, params: { expanded: 'all' } });
    t.same(c.apiSettings, { playground: 'none', languages: ['python', 'bash'], expanded: true });
    t.same(c.warnings, [
      'docs.json: api.playground.proxy: Try it sends requests from the reader\'s browser, not through a proxy: the API must allow the site\'s origin (CORS)',
      'docs.json: api.examples.languages: no samples are made in go; samples are made in curl, javascript and python',
      'docs.json: api.examples.defaults: samples carry the required parameters only',
      'docs.json: api.examples.prefill: Try it is prefilled with the example body only, not with parameter examples',
    ]);
    t.same(parse({ playground: { display: 'interactive', proxy: false }, examples: { autogenerate: false } }).apiSettings, { playground: 'interactive', autogenerate: false });
    t.same(parse({ playground: { display: 'interactive', proxy: false } }).warnings, [], 'what Mintlify does by default warns of nothing');
  });

  await t.test('should read playground.mode, the earlier name files migrated from mint.json carry, as display', async (t) => {
    t.same(['show', 'simple', 'hide'].map((mode) => parse({ playground: { mode } }).apiSettings?.playground), ['interactive', 'simple', 'none']);
    t.same(parse({ playground: { mode: 'simple' } }).warnings, []);
    t.equal(parse({ playground: { mode: 'hide', display: 'interactive' } }).apiSettings?.playground, 'interactive', 'display wins');
  });

  await t.test('should reject wrong values with one line each', async (t) => {
    const problems = (api: unknown) => {
      try {
        parse(api);
      } catch (error) {
        t.ok(error instanceof BuilderError);
        return (error as BuilderError).message.split('\n');
      }
      t.fail('expected the configuration to be rejected');
      return [];
    };
    t.same(problems({ playground: { display: 'full' }, examples: { languages: 'curl' }, params: { expanded: true } }), [
      'docs.json: api.playground.display: Unexpected "full"; expected one of interactive, simple, none',
      'docs.json: api.examples.languages: Unexpected "curl"; expected a list of languages such as ["curl", "python"]',
      'docs.json: api.params.expanded: Unexpected true; expected one of all, closed',
    ]);
    t.same(problems({ playground: 'none' }), ['docs.json: api.playground: Unexpected "none"; expected { "display": "interactive" | "simple" | "none", "proxy": true | false }']);
  });

  await t.test('should shape the pages: no Try it, samples in the languages asked for, nested properties open', async (t) => {
    const dir = tempDir();
    makeRepo(dir, {
      'docs.json': JSON.stringify({ name: 'Shop', api: { playground: { display: 'simple' }, examples: { languages: ['python'] }, params: { expanded: 'all' } }, navigation: [{ group: 'Docs', pages: ['create', 'own'] }] }),
      'openapi.json': OPENAPI,
      'create.mdx': page('openapi: POST /users'),
      'own.mdx': page('openapi: GET /users\nplayground: interactive'),
    });
    const out = tempDir();
    const result = await build({ source: { kind: 'dir', dir }, store: createLocalDirStore(out), siteUrl: 'https://shop.example', year: 2026 });
    t.same([result.errors, result.warnings], [[], []]);
    const create = read(out, 'create/index.html');
    t.notMatch(create, 'data-api-try', 'display simple: no Try it');
    t.match(create, '<figcaption class="code-title">Python</figcaption>');
    t.notMatch(create, '<figcaption class="code-title">cURL</figcaption>');
    t.match(read(out, 'own/index.html'), 'data-api-try', 'the page\'s own playground: interactive wins');
  });
});

/** An AsyncAPI 3.0 document: a chat channel with a parameter, a WebSocket binding, two operations. */
const ASYNC_V3 = `asyncapi: 3.0.0
info: { title: Chat, version: "1" }
servers:
  production: { host: chat.example.com, protocol: wss, pathname: /v1, description: The live service }
channels:
  room:
    address: /rooms/{roomId}
    title: Chat room
    description: Messages of one room.
    parameters:
      roomId: { description: The room }
    bindings: { ws: {} }
    messages:
      said:
        name: said
        title: Someone said
        payload: { $ref: "#/components/schemas/Said" }
      typing:
        name: typing
        payload: { type: object, properties: { user: { type: string } } }
operations:
  receiveSaid: { action: receive, channel: { $ref: "#/channels/room" }, messages: [{ $ref: "#/channels/room/messages/said" }], summary: Messages as they are said }
  sendTyping: { action: send, channel: { $ref: "#/channels/room" }, messages: [{ $ref: "#/channels/room/messages/typing" }] }
components:
  schemas:
    Said: { type: object, required: [text], properties: { text: { type: string, description: What was said }, at: { type: string, format: date-time } } }
`;

/** An AsyncAPI 2.6 document: the key is the address, publish/subscribe hold the messages. */
const ASYNC_V2 = JSON.stringify({
  asyncapi: '2.6.0', info: { title: 'Prices', version: '1' },
  servers: { live: { url: 'wss://prices.example.com', protocol: 'wss' } },
  channels: { 'prices/{symbol}': { description: 'Prices of one symbol.', subscribe: { summary: 'Price updates', message: { name: 'tick', payload: { type: 'object', properties: { price: { type: 'number' } } } } } } },
});

t.test('AsyncAPI channel pages', async (t) => {
  const dir = tempDir();
  makeRepo(dir, {
    'docs.json': JSON.stringify({ name: 'Chat', api: { asyncapi: 'asyncapi.yaml' }, navigation: [{ group: 'Channels', pages: ['room', 'prices', 'nope'] }] }),
    'asyncapi.yaml': ASYNC_V3,
    'feeds/prices.json': ASYNC_V2,
    'room.mdx': page('asyncapi: room', 'Join a room first.\n'),
    'prices.mdx': page('title: Prices\nasyncapi: "/feeds/prices.json prices/{symbol}"'),
    'nope.mdx': page('title: Nope\nasyncapi: lobby'),
  });
  const out = tempDir();
  const result = await build({ source: { kind: 'dir', dir }, store: createLocalDirStore(out), siteUrl: 'https://chat.example', year: 2026 });
  t.same(result.errors, [{ sourcePath: 'nope.mdx', line: 3, column: 1, message: 'asyncapi: Unexpected "lobby": asyncapi.yaml has no such channel; expected one of room' }]);
  t.same(result.warnings, [], 'api.asyncapi is read, not ignored');

  const room = read(out, 'room/index.html');
  t.match(room, '<title>Chat room');
  t.match(room, '<span class="api-method" data-method="CHANNEL">WSS</span> <code class="api-path">/rooms/{roomId}</code>');
  t.match(room, 'Messages of one room.');
  t.match(room, 'Join a room first.');
  t.match(room, '<code>wss://chat.example.com/v1</code> (production, wss): The live service');
  t.match(room, '<code>receive</code> <strong>receiveSaid</strong>: Messages as they are said');
  t.match(room, /<section class="api-message" id="message-said" data-action="receive"><h3>Someone said/);
  t.match(room, 'What was said', 'the payload\'s fields, from a named schema');
  t.match(room, 'roomId');
  const md = read(out, 'room.md');
  t.match(md, 'Channel `/rooms/{roomId}`');
  t.match(md, '### Someone said (receive)');
  t.match(md, '- `text` (string, required): What was said');
  t.match(md, '### typing (send)');

  const prices = read(out, 'prices/index.html');
  t.match(prices, '<code class="api-path">prices/{symbol}</code>');
  t.match(prices, '<code>subscribe</code>');
  t.match(prices, 'price');
  t.match(read(out, 'llms-full.txt'), 'Channel `prices/{symbol}`');
});

t.test('navigation asyncapi keys make a page per channel', async (t) => {
  const dir = tempDir();
  makeRepo(dir, {
    'docs.json': JSON.stringify({
      name: 'Events', navigation: {
        tabs: [
          { tab: 'Guides', groups: [{ group: 'Start', pages: ['index'] }, { group: 'Price feed', asyncapi: '/feeds/prices.json' }] },
          { tab: 'Chat', asyncapi: 'asyncapi.yaml' },
        ],
      },
    }),
    'asyncapi.yaml': ASYNC_V3,
    'feeds/prices.json': ASYNC_V2,
    'index.mdx': page('title: Home', 'Welcome.\n'),
  });
  const out = tempDir();
  const result = await build({ source: { kind: 'dir', dir }, store: createLocalDirStore(out), siteUrl: 'https://events.example', year: 2026 });
  t.same(result.errors, []);
  t.same(result.warnings, [], 'the asyncapi keys are read, not ignored');
  t.equal(result.pagesSuccess, 3, 'the home page and one page per channel');

  const room = read(out, 'api-reference/channels/chat-room/index.html');
  t.match(room, '<title>Chat room');
  t.match(room, '<code class="api-path">/rooms/{roomId}</code>');
  t.match(room, '<code>receive</code> <strong>receiveSaid</strong>: Messages as they are said');
  t.match(room, 'What was said', 'the payload\'s fields');
  t.match(read(out, 'api-reference/channels/chat-room.md'), 'Channel `/rooms/{roomId}`');
  const prices = fs.readdirSync(path.join(out, 'api-reference/channels')).filter((name) => name.startsWith('prices'));
  t.same(prices.filter((name) => !name.endsWith('.md')), ['prices-symbol'], 'the 2.x channel, named by its key');
  t.match(read(out, 'api-reference/channels/prices-symbol/index.html'), '<code>subscribe</code>');
  t.match(read(out, 'llms-full.txt'), 'Channel `prices/{symbol}`');

  const home = read(out, 'index.html');
  t.match(home, 'href="/api-reference/channels/prices-symbol"', 'the group lists its document\'s channel');
  t.notMatch(home.slice(home.indexOf('class="sidebar-nav"'), home.indexOf('</nav>', home.indexOf('class="sidebar-nav"'))), 'chat-room', 'the other document\'s channel is in its own tab');
  t.match(room, 'href="/api-reference/channels/chat-room"', 'the tab lists its channel');
});

t.test('a docs.json in a folder names documents of that folder', async (t) => {
  const dir = tempDir();
  makeRepo(dir, {
    'README.md': '# A monorepo\n',
    'docs/docs.json': JSON.stringify({ name: 'Mono', api: { openapi: 'openapi.json' }, navigation: [{ group: 'Docs', pages: ['index', 'users'] }, { group: 'API', openapi: 'openapi.json' }] }),
    'docs/openapi.json': OPENAPI,
    'docs/index.mdx': page('title: Home', 'Welcome.\n'),
    'docs/users.mdx': page('openapi: GET /users'),
  });
  const out = tempDir();
  const result = await build({ source: { kind: 'dir', dir }, store: createLocalDirStore(out), siteUrl: 'https://mono.example', year: 2026 });
  t.same(result.errors, []);
  t.match(read(out, 'users/index.html'), '<code class="api-path">/users</code>');
  t.ok(fs.existsSync(path.join(out, 'api-reference/users/create-a-user/index.html')), 'api.openapi is read from the folder of docs.json');
  t.notOk(fs.existsSync(path.join(out, 'api-reference/users/list-users/index.html')), 'no twin of the page\'s operation');
});

t.test('navigation openapi keys naming several documents', async (t) => {
  const dir = tempDir();
  makeRepo(dir, {
    'docs.json': JSON.stringify({
      name: 'Two',
      navigation: { tabs: [{ tab: 'Guides', groups: [{ group: 'Start', pages: ['index'] }] }, { tab: 'Shop API', openapi: 'openapi.json' }, { tab: 'Orders API', groups: [{ group: 'Orders', openapi: '/specs/v2.yaml' }] }] },
    }),
    'openapi.json': OPENAPI,
    'specs/v2.yaml': V2_YAML,
    'index.mdx': page('title: Home', 'Welcome.\n'),
  });
  const out = tempDir();
  const result = await build({ source: { kind: 'dir', dir }, store: createLocalDirStore(out), siteUrl: 'https://two.example', year: 2026 });
  t.same(result.errors, []);
  t.ok(fs.existsSync(path.join(out, 'api-reference/users/list-users/index.html')), 'the first document\'s operations are pages');
  t.ok(fs.existsSync(path.join(out, 'api-reference/endpoints/place-an-order/index.html')), 'and the second\'s');
  const sidebar = (html: string) => html.slice(html.indexOf('<nav class="sidebar-nav"'), html.indexOf('</nav>', html.indexOf('<nav class="sidebar-nav"')));
  const shop = sidebar(read(out, 'api-reference/users/list-users/index.html'));
  t.match(shop, 'List users');
  t.notMatch(shop, 'Place an order', 'a tab lists its own document\'s operations');
  const orders = sidebar(read(out, 'api-reference/endpoints/place-an-order/index.html'));
  t.match(orders, 'Place an order');
  t.notMatch(orders, 'List users');
});

t.test('a document named from the root that only a version folder holds', async (t) => {
  const dir = tempDir();
  const v1 = JSON.parse(OPENAPI);
  v1.info.title = 'Edge';
  makeRepo(dir, {
    'docs.json': JSON.stringify({ name: 'Versions', navigation: { versions: [
      { version: 'Edge', groups: [{ group: 'API', pages: ['edge/en/api/users'] }] },
      { version: 'v1', default: true, groups: [{ group: 'API', pages: ['v1/en/api/users', 'v1/en/api/missing'] }] },
    ] } }),
    'edge/openapi.en.json': JSON.stringify(v1),
    'edge/en/api/users.mdx': page('openapi: "/openapi.en.json GET /users"', 'Edge copy.\n'),
    'v1/openapi.en.json': OPENAPI,
    'v1/en/api/users.mdx': page('openapi: "/v1/openapi.en.json GET /users"', 'Named from the root.\n'),
    'v1/en/api/missing.mdx': page('openapi: "/nowhere.json GET /users"'),
  });
  const out = tempDir();
  const result = await build({ source: { kind: 'dir', dir }, store: createLocalDirStore(out), siteUrl: 'https://versions.example', year: 2026 });
  t.same(result.errors, [{
    sourcePath: 'v1/en/api/missing.mdx', line: 2, column: 1,
    message: 'openapi: Unexpected document "/nowhere.json"; expected the path of a JSON or YAML file from the repository root or a folder of the page, or an http(s) URL',
  }], 'a document no folder has still fails, saying where it was looked for');
  const edge = read(out, 'edge/en/api/users/index.html');
  t.match(edge, '<code class="api-path">/users</code>', 'the version folder\'s document is found from the page\'s folders');
  t.match(edge, 'Edge copy.');
  t.match(read(out, 'v1/en/api/users/index.html'), '<code class="api-path">/users</code>');
});
