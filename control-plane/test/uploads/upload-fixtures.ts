/**
 * Upload fixtures: small real image files, a local-directory site store in a temp dir, a
 * multipart builder, and a local HTTP server that serves what a test tells it to.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createLocalDirStore } from '@folio/builder/internal/store/local-dir-store.ts';
import type { ObjectStore } from '@folio/builder/internal/store/object-store.ts';

/** A real 1×1 PNG. */
export const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');
/** JPEG start-of-image + JFIF APP0 header, then filler (type detection reads the signature only). */
export const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]), Buffer.from('JFIF\0'), Buffer.alloc(32, 1)]);
/** RIFF/WEBP container header with a VP8L chunk tag. */
export const WEBP = Buffer.concat([Buffer.from('RIFF'), Buffer.from([0x1a, 0, 0, 0]), Buffer.from('WEBPVP8L'), Buffer.alloc(18, 2)]);
/** ICONDIR with one 16-byte entry. */
export const ICO = Buffer.concat([Buffer.from([0, 0, 1, 0, 1, 0, 16, 16, 0, 0, 1, 0, 32, 0, 4, 0, 0, 0, 22, 0, 0, 0]), Buffer.alloc(4, 3)]);
/** A clean SVG whose sanitised form is byte-identical. */
export const SVG = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><circle cx="5" cy="5" r="4" fill="#0a7"/></svg>';

/** A site store in a fresh temp dir; `root` is the folder. */
export function tempSiteStore(): { store: ObjectStore; root: string; cleanup(): void } {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-sites-'));
  return { store: createLocalDirStore(root), root, cleanup: () => fs.rmSync(root, { recursive: true, force: true }) };
}

/** multipart/form-data with the given files (name → bytes, sent as `<name>.<ext>`) and text fields. */
export function form(files: Record<string, { bytes: Buffer | string; filename?: string; type?: string }>, fields: Record<string, string> = {}): FormData {
  const fd = new FormData();
  for (const [k, v] of Object.entries(fields)) fd.append(k, v);
  for (const [k, f] of Object.entries(files)) {
    fd.append(k, new Blob([new Uint8Array(typeof f.bytes === 'string' ? Buffer.from(f.bytes) : f.bytes)], { type: f.type ?? 'application/octet-stream' }), f.filename ?? `${k}.bin`);
  }
  return fd;
}

export interface LocalServer { port: number; url(p: string): string; requests: string[]; close(): Promise<void> }

/** An HTTP server on 127.0.0.1 answering with `handler`; records request paths. */
export async function localServer(handler: http.RequestListener): Promise<LocalServer> {
  const requests: string[] = [];
  const server = http.createServer((req, res) => { requests.push(req.url ?? ''); handler(req, res); });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port, requests,
    url: (p) => `http://127.0.0.1:${port}${p}`,
    close: async () => { server.closeAllConnections(); await new Promise<void>((r) => server.close(() => r())); },
  };
}
