/**
 * The JSON Schema of `docs.json`, generated from the zod schema so the two never disagree.
 * Published at https://folio.dev/docs.schema.json (and served by the site server at
 * `/docs.schema.json`); the committed copy lives in `builder/schema/docs.schema.json`.
 */
import { z } from 'zod';
import { CONFIG_SCHEMA_URL, configSchema } from './config-schema.ts';

/** The schema as editors read it: input shape (defaults optional), draft 2020-12. */
export function configJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(configSchema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  const { $schema, ...rest } = schema;
  return { $schema, $id: CONFIG_SCHEMA_URL, title: 'Folio docs.json', ...rest };
}

/** The file's exact text: two-space JSON with a trailing newline. */
export function configJsonSchemaText(): string {
  return JSON.stringify(configJsonSchema(), null, 2) + '\n';
}
