import t from 'tap';
import { renderApiOperation } from '../../src/components/api-operation.tsx';
import { listRocketsView } from '../fixtures/api-operation.ts';

/** The markup of the element that starts with `start`, up to the first `end` after it. */
const slice = (html: string, start: string, end: string) => html.slice(html.indexOf(start), html.indexOf(end, html.indexOf(start)) + end.length);

t.test('api operation', async (t) => {
  t.test('should put the operation first and Try it with the examples after it, in an aside of their own', async (t) => {
    const html = renderApiOperation(listRocketsView());
    t.match(html, /^<div class="api-operation" data-method="POST"><div class="api-main"><p class="api-endpoint">.*<h2 id="responses">.*<\/div><div class="api-aside"><section class="api-try" [^>]*hidden><h2 id="try-it">Try it<\/h2>.*<h2 id="examples">Examples<\/h2><div class="code-group api-example" data-code-group data-example="request">.*data-example="response">.*<\/div><\/div>$/s);
    t.equal(slice(html, '<pre class="api-code"', '>'), '<pre class="api-code" tabindex="0">', 'example code can be scrolled from the keyboard');
  });

  t.test('should offer allowed values as a select: "not set" first when optional, the default chosen when required', async (t) => {
    const html = renderApiOperation(listRocketsView());
    t.equal(slice(html, '<select name="query:status"', '</select>'),
      '<select name="query:status" data-in="query" data-name="status"><option value selected>not set</option><option value="ready">ready</option><option value="maintenance">maintenance</option><option value="retired">retired</option></select>');
    t.equal(slice(html, '<select name="header:X-Priority"', '</select>'),
      '<select name="header:X-Priority" data-in="header" data-name="X-Priority" required><option value>choose a value</option><option value="1">1</option><option value="2" selected>2</option><option value="3">3</option></select>');
    t.equal(slice(html, '<input name="path:rocket_id"', '/>'), '<input name="path:rocket_id" data-in="path" data-name="rocket_id" required autocomplete="off" placeholder="string"/>', 'free text without allowed values');
  });

  t.test('should offer the document\'s servers, each server\'s variables and the base URL they make', async (t) => {
    const html = renderApiOperation(listRocketsView());
    t.equal(slice(html, '<fieldset class="api-try-server"', '</fieldset>'),
      '<fieldset class="api-try-server" data-servers="[&quot;https://api.acme.example/v2&quot;,&quot;https://{region}.sandbox.acme.example/{version}&quot;]"><legend>Server</legend>' +
      '<label>Send to <select name="server-choice"><option value="0">Production (https://api.acme.example/v2)</option><option value="1">Sandbox (https://{region}.sandbox.acme.example/{version})</option></select></label>' +
      '<label data-server-index="1" hidden>region <small>Where the sandbox runs</small><select data-server-var="region" disabled required><option value="eu" selected>eu</option><option value="us">us</option></select></label>' +
      '<label data-server-index="1" hidden>version <input data-server-var="version" disabled required value="v2" autocomplete="off"/></label>' +
      '<label>Base URL <input name="server" type="url" value="https://api.acme.example/v2" required/></label></fieldset>');
  });

  t.test('should keep the base URL alone with one server without variables, or without a list of servers', async (t) => {
    const base = '<label>Base URL <input name="server" type="url" value="https://api.acme.example/v2" required/></label>';
    for (const servers of [undefined, [{ url: 'https://api.acme.example/v2/' }]]) {
      const html = renderApiOperation(listRocketsView({ servers }));
      t.notMatch(html, 'api-try-server', servers ? 'one server' : 'no list');
      t.equal(slice(html, '<label>Base URL', '</label>'), base);
    }
  });
});
