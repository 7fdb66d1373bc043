/**
 * What the sandbox does to its own process before any page runs, beneath the permission model
 * and the operating system's layers (defence in depth: each is meant to hold on its own).
 *
 * `fsCompat()` runs first: under the permission model `existsSync` throws for a path outside the
 * allowed folders instead of answering false, and Vite probes a few such paths at start-up.
 *
 * `lockDown()` runs once the compiler is ready (Vite's native bundler is loaded by then), and
 * takes away from page code what it has no use for: loading native code, signalling processes,
 * the network globals, and the built-in modules that reach files, processes or the network.
 */
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';

/** `existsSync` answers false for paths the sandbox may not read, as it does for any error. */
export function fsCompat(): void {
  const existsSync = fs.existsSync;
  fs.existsSync = (p) => {
    try {
      return existsSync(p);
    } catch {
      return false;
    }
  };
  syncBuiltinESMExports();
}

/** Built-in modules page code may still get from `process.getBuiltinModule`. */
const HARMLESS_BUILTINS = new Set(['assert', 'buffer', 'events', 'path', 'punycode', 'querystring', 'string_decoder', 'url', 'util', 'zlib']);

function denied(what: string): never {
  throw new Error(`${what} is not available while compiling a page`);
}

/** Removes what page code could use to leave its sandbox; see the module comment. */
export function lockDown(): void {
  const proc = process as unknown as Record<string, unknown>;
  const getBuiltinModule = process.getBuiltinModule.bind(process);
  const lock = (target: Record<string, unknown>, name: string, value: unknown) => {
    Object.defineProperty(target, name, { value, writable: false, configurable: false, enumerable: false });
  };
  lock(proc, 'getBuiltinModule', (id: string) => {
    const name = String(id).replace(/^node:/, '');
    return HARMLESS_BUILTINS.has(name) ? getBuiltinModule(name) : denied(`The module "${name}"`);
  });
  for (const name of ['dlopen', 'binding', '_linkedBinding', 'kill', '_kill', 'chdir', 'setuid', 'setgid', 'seteuid', 'setegid', 'setgroups', 'initgroups', 'loadEnvFile', 'report', '_debugProcess', 'openStdin']) {
    if (name in proc) lock(proc, name, () => denied(`process.${name}`));
  }
  const global = globalThis as unknown as Record<string, unknown>;
  for (const name of ['fetch', 'WebSocket', 'EventSource', 'XMLHttpRequest']) {
    if (name in global) lock(global, name, () => denied(name));
  }
}
