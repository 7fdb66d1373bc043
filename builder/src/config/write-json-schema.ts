/**
 * `npm run -w @folio/builder schema`: regenerates `schema/docs.schema.json` from the zod
 * schema. A test fails when the committed file is stale.
 */
import { writeFile } from 'node:fs/promises';
import { configJsonSchemaText } from './json-schema.ts';

const target = new URL('../../schema/docs.schema.json', import.meta.url);
await writeFile(target, configJsonSchemaText());
console.log("wrote schema/docs.schema.json");
