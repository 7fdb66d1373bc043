/**
 * Opens the platform's database the way `npm start` does (MONGODB_URI, or the embedded server
 * on DATA_DIR, or the running platform's embedded server when it owns DATA_DIR), runs `fn`,
 * and closes it.
 */
import { connectDatabase, models, parseEnv, type Models } from '@folio/control-plane';

export async function withDatabase<T>(fn: (m: Models) => Promise<T>): Promise<T> {
  const env = parseEnv();
  const db = await connectDatabase({ mongodbUri: env.MONGODB_URI, dataDir: env.dataDir });
  try {
    return await fn(models(db.connection));
  } finally {
    await db.close();
  }
}
