import t from 'tap';
import { operationViews } from '../../src/api/api-view.ts';
import { readSpec } from '../../src/api/read-spec.ts';

const SWAGGER = `
swagger: "2.0"
info: { title: Shop, version: "1" }
host: shop.test
basePath: /api
schemes: [https]
securityDefinitions:
  key: { type: apiKey, in: header, name: X-Api-Key }
security: [{ key: [] }]
definitions:
  Item:
    type: object
    required: [sku]
    properties:
      sku: { type: string, example: A-1 }
      tags: { type: array, items: { type: string } }
      parts: { type: array, items: { $ref: "#/definitions/Item" } }
paths:
  /items/{sku}:
    parameters:
      - { name: sku, in: path, required: true, type: string }
    put:
      summary: Replace an item
      parameters:
        - { name: dry_run, in: query, required: true, type: boolean }
        - { name: body, in: body, required: true, schema: { $ref: "#/definitions/Item" } }
      responses:
        "200": { description: The item, schema: { $ref: "#/definitions/Item" } }
`;

t.test('operation views from OpenAPI documents', async (t) => {
  await t.test('should read a Swagger 2.0 YAML document: host, body parameter, apiKey header, cycles cut', async (t) => {
    const [view] = operationViews(await readSpec(SWAGGER, 'shop.yaml'));
    t.same([view.method, view.path, view.server, view.tag, view.auth], ['PUT', '/items/{sku}', 'https://shop.test/api', 'Endpoints', { kind: 'header', name: 'X-Api-Key' }]);
    t.same(view.params.path, [{ name: 'sku', type: 'string', required: true }]);
    t.same(view.params.query, [{ name: 'dry_run', type: 'boolean', required: true }]);
    t.same(view.body, {
      contentType: 'application/json', type: 'object', required: true,
      fields: [
        { name: 'sku', type: 'string', required: true },
        { name: 'tags', type: 'array<string>' },
        { name: 'parts', type: 'array<object>', schema: 'Item', anchor: 'schema-Item', repeat: true },
      ],
      schema: 'Item', anchor: 'schema-Item',
      example: '{\n  "sku": "A-1",\n  "tags": [\n    "string"\n  ],\n  "parts": []\n}',
    });
    // The response is the same schema as the body: listed once on the page, linked here.
    t.same(view.responses.map((r) => [r.status, r.description, r.body?.fields.map((f) => f.name), r.body?.anchor, r.body?.repeat]), [['200', 'The item', [], 'schema-Item', true]]);
    t.equal(view.samples[0].code, [
      'curl --request PUT \\',
      "  --url 'https://shop.test/api/items/{sku}?dry_run=true' \\",
      "  --header 'X-Api-Key: <token>' \\",
      "  --header 'Content-Type: application/json' \\",
      `  --data '{\n  "sku": "A-1",\n  "tags": [\n    "string"\n  ],\n  "parts": []\n}'`,
    ].join('\n'));
    t.equal(view.samples[2].code, [
      'import requests', '', 'response = requests.request(', '    "PUT",', '    "https://shop.test/api/items/{sku}?dry_run=true",',
      '    headers={', '        "X-Api-Key": "<token>",', '    },',
      '    json={', '        "sku": "A-1",', '        "tags": [', '            "string",', '        ],', '        "parts": [],', '    },', ')', 'print(response.json())',
    ].join('\n'));
  });

  await t.test('should list the servers Try it may send to: the operation\'s own, else its path\'s, else the document\'s', async (t) => {
    const doc = await readSpec(JSON.stringify({
      openapi: '3.1.0', info: { title: 'Servers', version: '1' },
      servers: [
        { url: 'https://api.example.test/v1', description: 'Production' },
        { url: 'https://{region}.sandbox.example.test/v1/', variables: { region: { default: 'eu', enum: ['eu', 'us'], description: 'Data region' }, port: { enum: ['1'] } } },
        { description: 'no url' }, 'not an object',
      ],
      paths: {
        '/a': { get: { responses: {} } },
        '/b': { servers: [{ url: 'https://b.example.test' }], get: { responses: {} }, post: { servers: [{ url: 'https://{host}/x', variables: { host: { default: 'own.example.test' } } }], responses: {} } },
        '/c': { servers: [{ url: 'https://c.example.test/' }, { url: 'https://c2.example.test' }], get: { responses: {} } },
      },
    }), 'servers.json');
    const views = operationViews(doc);
    const byOp = Object.fromEntries(views.map((v) => [`${v.method} ${v.path}`, [v.server, v.servers]]));
    t.same(byOp['GET /a'], ['https://api.example.test/v1', [
      { url: 'https://api.example.test/v1', description: 'Production' },
      { url: 'https://{region}.sandbox.example.test/v1/', variables: { region: { default: 'eu', enum: ['eu', 'us'], description: 'Data region' } } },
    ]], 'the document servers; entries without a URL and variables without a default are left out');
    t.same(byOp['GET /b'], ['https://b.example.test', undefined], 'one server without variables: nothing to pick');
    t.same(byOp['POST /b'], ['https://own.example.test/x', [{ url: 'https://{host}/x', variables: { host: { default: 'own.example.test' } } }]], 'the operation own server, its variable to fill in');
    t.same(byOp['GET /c'], ['https://c.example.test', [{ url: 'https://c.example.test/' }, { url: 'https://c2.example.test' }]], 'the path servers');
    t.match(views.find((v) => v.path === '/b' && v.method === 'POST')!.samples[0].code, /--url 'https:\/\/own\.example\.test\/x\/b'/, 'examples use the operation server');
  });

  await t.test('should refuse documents that are not OpenAPI, with the reason', async (t) => {
    await t.rejects(readSpec('{"paths":{}}', 'a.json'), { code: 'invalid_openapi', message: 'api.openapi: a.json: Unexpected document; expected an "openapi" (3.x) or "swagger" (2.0) version field' });
    await t.rejects(readSpec('openapi: 3.0.0\ninfo: [', 'a.yaml'), { code: 'invalid_openapi', message: /^api\.openapi: a\.yaml: Unexpected syntax \(.+\); expected a JSON or YAML document$/ });
    await t.rejects(readSpec('{"openapi":"3.0.0"}', 'a.json'), { code: 'invalid_openapi', message: 'api.openapi: a.json: Unexpected document; expected a "paths" object' });
  });
});
