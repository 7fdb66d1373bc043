/**
 * Opens the platform's database the way `npm start` does (MONGODB_URI, or the embedded server
 * on DATA_DIR, or the running platform's embedded server when it owns DATA_DIR), runs `fn`,
 * and closes it. Imports only the database modules (not the API, Koa or the builder), so the
 * `keys` and `orgs` commands start quickly.
 */
import { connectDatabase } from '@folio/control-plane/db/connect.ts';
import { models, type Models } from '@folio/control-plane/db/models/index.ts';
import { parseEnv } from '@folio/control-plane/env.ts';

export async function withDatabase<T>(fn: (m: Models) => Promise<T>): Promise<T> {
  const env = parseEnv();
  const db = await connectDatabase({ mongodbUri: env.MONGODB_URI, dataDir: env.dataDir });
  try {
    return await fn(models(db.connection));
  } finally {
    await db.close();
  }
}
