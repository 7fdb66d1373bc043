/**
 * Probes for tests of the address rules: a local listener that counts the connections it gets
 * (a refused URL must reach it zero times), and a resolver that asks the DNS stand-in.
 */
import { Resolver } from 'node:dns/promises';
import net from 'node:net';
import type { ResolveHost } from '../../src/outbound/safe-fetch.ts';

/** A TCP listener on 127.0.0.1 that counts the connections it accepts (it must see none). */
export async function connectionCounter(): Promise<{ port: number; count(): number; close(): Promise<void> }> {
  let connections = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((s) => { connections++; sockets.add(s); s.on('close', () => sockets.delete(s)); s.end('HTTP/1.1 204 No Content\r\n\r\n'); });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    count: () => connections,
    close: () => new Promise((resolve) => { for (const s of sockets) s.destroy(); server.close(() => resolve()); }),
  };
}

/** A resolver that asks the DNS stand-in one ANY question per lookup. */
export function standInResolve(server: string): ResolveHost {
  const resolver = new Resolver({ timeout: 2_000, tries: 1 });
  resolver.setServers([server]);
  return async (host) => (await resolver.resolveAny(host)).flatMap((r) => (r.type === 'A' || r.type === 'AAAA' ? [r.address] : []));
}

