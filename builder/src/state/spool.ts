/**
 * What a build produces early and reads once near its end, kept in a temporary file instead of
 * memory. A build's memory peaks while both compile sandboxes run, and two things grew with the
 * site through that step: the Markdown of every page compiled (for `llms-full.txt`, ~50 MB of
 * strings at 10,000 pages) and the bundles of search shards indexed early (~40 MB of buffers).
 * Written as they arrive (the file lives in the OS's page cache, not in the process), read back
 * when wanted.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { appError } from '../errors.ts';

export class Spool {
  private dir: string | undefined;
  private fd: number | undefined;
  private size = 0;
  private readonly spans = new Map<string, [start: number, length: number]>();

  /** Appends `data` (text as UTF-8) under `key`; a key added again keeps its first data. */
  add(key: string, data: string | Uint8Array): void {
    if (this.spans.has(key)) return;
    if (this.fd === undefined) {
      this.dir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-spool-'));
      this.fd = fs.openSync(path.join(this.dir, 'spool'), 'w+', 0o600);
    }
    const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    let written = 0;
    while (written < bytes.byteLength) written += fs.writeSync(this.fd, bytes, written, bytes.byteLength - written, this.size + written);
    this.spans.set(key, [this.size, bytes.byteLength]);
    this.size += bytes.byteLength;
  }

  /** Keys added so far. */
  get count(): number {
    return this.spans.size;
  }

  /** The bytes added under `key` (undefined for a key never added). */
  get(key: string): Buffer | undefined {
    const span = this.spans.get(key);
    return span && this.read(span[0], span[1]);
  }

  /** Key → bytes of everything added, as views of one buffer read at once. */
  readAll(): Map<string, Buffer> {
    const all = this.read(0, this.size);
    return new Map([...this.spans].map(([key, [start, length]]) => [key, all.subarray(start, start + length)]));
  }

  /** Removes the file; the spool is empty again. */
  close(): void {
    if (this.fd !== undefined) fs.closeSync(this.fd);
    if (this.dir !== undefined) fs.rmSync(this.dir, { recursive: true, force: true });
    this.fd = undefined;
    this.dir = undefined;
    this.size = 0;
    this.spans.clear();
  }

  private read(start: number, length: number): Buffer {
    const bytes = Buffer.alloc(length);
    let done = 0;
    while (done < length) {
      const n = this.fd === undefined ? 0 : fs.readSync(this.fd, bytes, done, length - done, start + done);
      if (n === 0) throw appError('spool_truncated', `spool ended after ${start + done} of ${start + length} bytes`);
      done += n;
    }
    return bytes;
  }
}
