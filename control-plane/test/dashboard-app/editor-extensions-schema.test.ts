/**
 * The pure parts of the editing extensions: where the cursor is in an incomplete `docs.json`,
 * the keys and values the configuration schema offers there (refs and anyOf/oneOf followed),
 * and where the cursor is in MDX (inside a start tag, after a link's `](`), plus the heading
 * anchors read from a page's text.
 */
import t from 'tap';
import { readFileSync } from 'node:fs';
import { jsonPathAt, keysAt, valuesAt, type Schema } from '../../dashboard-app/src/editor/extensions/schema-walker.ts';
import { documentHeadings, linkContext, tagContext } from '../../dashboard-app/src/editor/extensions/tag-context.ts';

const schema = JSON.parse(readFileSync(new URL('../../../builder/schema/docs.schema.json', import.meta.url), 'utf8')) as Schema;
const at = (text: string) => jsonPathAt(text, text.length);
const keys = (path: (string | number)[]) => keysAt(schema, path).map((k) => k.key);

t.test('schema completion walker', async (t) => {
  t.test('should tell a key from a value and give the path of keys and indexes', async (t) => {
    t.same(at('{ '), { kind: 'key', path: [], from: 2, inString: false });
    t.same(at('{ "na'), { kind: 'key', path: [], from: 3, inString: true });
    t.same(at('{ "name": "x", "the'), { kind: 'key', path: [], from: 16, inString: true });
    t.same(at('{ "theme": "'), { kind: 'value', path: ['theme'], from: 12, inString: true });
    t.same(at('{ "appearance": { "default": '), { kind: 'value', path: ['appearance', 'default'], from: 29, inString: false });
    const nav = '{\n  "navigation": {\n    "tabs": [\n      { "tab": "x", ';
    t.same(at(nav), { kind: 'key', path: ['navigation', 'tabs', 0], from: nav.length, inString: false });
    const second = '{ "navigation": { "tabs": [ { "tab": "a" }, { "groups": [ { "group": "g", "pages": [ "a", "';
    t.same(at(second), { kind: 'value', path: ['navigation', 'tabs', 1, 'groups', 0, 'pages', 1], from: second.length, inString: true });
    t.same(at('{ "name": "a\\"b", "x": tr'), { kind: 'value', path: ['x'], from: 23, inString: false }, 'escaped quotes stay in the string');
    t.equal(at('{ "name": "x" '), null, 'after a complete value nothing is offered');
    t.equal(at(''), null, 'outside any object');
  });

  t.test('should offer the keys of the object at a path, through refs and anyOf branches', async (t) => {
    const root = keys([]);
    t.ok(['name', 'theme', 'colors', 'navigation', 'logo', 'navbar', 'footer'].every((k) => root.includes(k)), 'top-level keys');
    t.same(keys(['colors']), ['primary', 'light', 'dark', 'logo']);
    t.ok(['tabs', 'groups', 'pages', 'anchors'].every((k) => keys(['navigation']).includes(k)), 'navigation as an object (one anyOf branch)');
    t.ok(['tab', 'icon', 'href', 'groups'].every((k) => keys(['navigation', 'tabs', 0]).includes(k)), 'a tab, through items and $ref');
    t.ok(['group', 'pages', 'icon', 'expanded'].every((k) => keys(['navigation', 'tabs', 0, 'groups', 0]).includes(k)), 'a group inside a tab');
    t.ok(keys(['navigation', 0]).includes('group'), 'navigation as an array of entries (the other branch)');
    t.same(keys(['nothing-here']), [], 'an unknown key has no keys');
    const name = keysAt(schema, []).find((k) => k.key === 'name');
    t.equal(name?.required, true, 'name is required');
    t.equal(name?.type, 'string');
  });

  t.test('should offer enum values, booleans and defaults', async (t) => {
    const themes = valuesAt(schema, ['theme']).map((v) => v.value);
    t.ok(['cedar', 'larch', 'sage', 'terminal'].every((v) => themes.includes(v)), 'every theme');
    t.same(valuesAt(schema, ['appearance', 'default']).map((v) => v.value), ['light', 'dark', 'system']);
    const tiny: Schema = {
      type: 'object',
      properties: { flag: { type: 'boolean', default: false }, mode: { $ref: '#/$defs/mode' }, list: { type: 'array', items: { oneOf: [{ const: 'a' }, { const: 'b' }] } } },
      $defs: { mode: { anyOf: [{ enum: ['x', 'y'] }, { type: 'string' }], default: 'x' } },
    };
    t.same(valuesAt(tiny, ['flag']), [{ value: true, description: undefined }, { value: false, description: undefined }]);
    t.same(valuesAt(tiny, ['mode']).map((v) => v.value), ['x', 'y']);
    t.same(valuesAt(tiny, ['list', 3]).map((v) => v.value), ['a', 'b']);
  });
});

t.test('MDX cursor context', async (t) => {
  t.test('should find the start tag the cursor is in', async (t) => {
    t.same(tagContext('Text <Card '), { kind: 'attr', name: 'Card', attrs: [], from: 11 });
    t.same(tagContext('<Card title="A > B" ic'), { kind: 'attr', name: 'Card', attrs: ['title'], from: 20 });
    t.same(tagContext('<Card title="x" icon="roc'), { kind: 'value', name: 'Card', attrs: ['title', 'icon'], attr: 'icon', from: 22, quote: '"' });
    t.same(tagContext('<Tree.Folder\n  name="src"\n  '), { kind: 'attr', name: 'Tree.Folder', attrs: ['name'], from: 28 });
    t.same(tagContext('<Columns cols={2} '), { kind: 'attr', name: 'Columns', attrs: ['cols'], from: 18 });
    t.equal(tagContext('<Card title="x">text '), null, 'after the tag is closed');
    t.equal(tagContext('<Card'), null, 'still typing the name');
    t.equal(tagContext('a < b and '), null, 'a less-than sign is no tag');
  });

  t.test('should find a Markdown link target being typed', async (t) => {
    t.same(linkContext('See [the guide](/gui'), { target: '/gui', from: 16 });
    t.same(linkContext('[x](#'), { target: '#', from: 4 });
    t.equal(linkContext('[x](/a) and more'), null);
  });

  t.test('should read heading anchors outside code fences, numbering repeats', async (t) => {
    const text = '# Title\n\n## Getting started\n\n```md\n## Not a heading\n```\n\n### Getting started\n## API & SDKs!\n';
    t.same(documentHeadings(text), [
      { id: 'title', text: 'Title', depth: 1 },
      { id: 'getting-started', text: 'Getting started', depth: 2 },
      { id: 'getting-started-1', text: 'Getting started', depth: 3 },
      { id: 'api-sdks', text: 'API & SDKs!', depth: 2 },
    ]);
  });
});

t.test('asset names of dropped and pasted images', async (t) => {
  const { assetName } = await import('../../dashboard-app/src/editor/extensions/asset-name.ts');
  t.equal(assetName({ name: 'Install screen 2.png', type: 'image/png' }), 'install-screen-2.png', 'spaces and capitals, as screenshots are named');
  t.equal(assetName({ name: 'Café déjà vu.JPG', type: 'image/jpeg' }), 'cafe-deja-vu.jpg', 'accents dropped');
  t.equal(assetName({ name: 'diagram_v1.2-final.svg', type: 'image/svg+xml' }), 'diagram_v1-2-final.svg', 'only the last dot starts the extension');
  t.equal(assetName({ name: '', type: 'image/png' }), 'pasted-image.png', 'a pasted image without a name');
  t.equal(assetName({ name: '屏幕截图.png', type: 'image/png' }), 'pasted-image.png', 'a name with nothing left');
  t.equal(assetName({ name: '.hidden', type: 'image/webp' }), 'hidden');
});
