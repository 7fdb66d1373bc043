/**
 * `npm run db:serve`: the embedded database on its own, for several control-plane processes on
 * one machine (each started with `MONGODB_URI` set to the address printed here) without a
 * MongoDB installation. Durable in `<DATA_DIR>/db` (DATA_DIR as `npm start` reads it); listens on
 * DB_HOST:DB_PORT (default 127.0.0.1:27018; 0 picks a free port). Prints one line,
 * `Database: <uri>`, once it answers; SIGTERM or SIGINT closes it after every acknowledged write
 * is on disk. The embedded server has no authentication: keep it on a loopback or private address.
 */
import path from 'node:path';
import { startEmbeddedMongo } from '@folio/embedded-mongo';
import { parseEnv } from '@folio/control-plane/env.ts';

const env = parseEnv();
const port = Number(process.env.DB_PORT ?? 27018);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`DB_PORT: expected a port number, got ${JSON.stringify(process.env.DB_PORT)}`);
  process.exit(2);
}
const server = await startEmbeddedMongo({ dataDir: path.join(env.dataDir, 'db'), port, host: process.env.DB_HOST ?? '127.0.0.1' });
console.log(`Database: ${server.uri.replace('/?', '/folio?')}`);

let closing = false;
const stop = async () => {
  if (closing) return;
  closing = true;
  await server.close();
  process.exit(0);
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
