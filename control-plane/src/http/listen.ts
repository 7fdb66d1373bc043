import type http from 'node:http';
import { AppError } from '../errors.ts';

/**
 * Starts `server` on `port` and `host`. A taken port becomes one line naming the variable that
 * sets it (`port_in_use`), instead of Node's EADDRINUSE stack trace.
 */
export function listen(server: http.Server, port: number, host: string, variable: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'EADDRINUSE') {
        reject(new AppError(409, 'port_in_use', `Port ${port} on ${host} is taken by another program; set ${variable} to a free port (for example ${variable}=${port + 1})`, { cause: err }));
      } else reject(err);
    });
    server.listen(port, host, resolve);
  });
}
