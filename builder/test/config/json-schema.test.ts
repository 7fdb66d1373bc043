import t from 'tap';
import { readFile } from 'node:fs/promises';
import { configJsonSchema, configJsonSchemaText } from '../../src/config/json-schema.ts';

t.test('configJsonSchema', async (t) => {
  t.test('should match the committed schema/docs.schema.json (run `npm run -w @folio/builder schema` when this fails)', async (t) => {
    const committed = await readFile(new URL('../../schema/docs.schema.json', import.meta.url), 'utf8');
    t.equal(committed, configJsonSchemaText());
  });

  t.test('should describe the file for editors: id, required name, theme enum with aliases, defaults', async (t) => {
    const schema = configJsonSchema() as {
      $id: string; required: string[];
      properties: Record<string, { enum?: string[]; default?: unknown; additionalProperties?: boolean; properties?: Record<string, { default?: unknown }> }>;
    };
    t.equal(schema.$id, 'https://folio.dev/docs.schema.json');
    t.same(schema.required, ['name']);
    t.same(schema.properties.theme.enum, ['cedar', 'obsidian', 'birch', 'oak', 'cypress', 'ember', 'larch', 'sage', 'slate', 'terminal', 'maple', 'classic', 'modern', 'minimal', 'mint', 'palm', 'willow', 'linden', 'almond', 'aspen', 'luma', 'sequoia']);
    t.equal(schema.properties.theme.default, 'larch');
    t.equal(schema.properties.contentRoot.default, 'docs/');
    t.equal(schema.properties.appearance.additionalProperties, false);
    t.equal(schema.properties.seo.properties?.indexing.default, 'default');
  });
});
