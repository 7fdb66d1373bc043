/**
 * A real S3-compatible server for tests: s3rver in a child process on 127.0.0.1. It runs in
 * its own process because list pagination needs `--openssl-legacy-provider` (its continuation
 * tokens use DES), which the test process should not carry.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { S3Client } from '@aws-sdk/client-s3';

export interface S3Server {
  /** Endpoint URL, e.g. `http://127.0.0.1:41234`. */
  endpoint: string;
  /** The bucket created at start. */
  bucket: string;
  /** A client configured the way s3rver needs (path style, checksums only when required). */
  client(): S3Client;
  close(): Promise<void>;
}

const require = createRequire(import.meta.url);

/** Starts s3rver with one empty bucket (default `folio-test`) in a fresh temp folder. */
export async function startS3Server(bucket = 'folio-test'): Promise<S3Server> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-s3-'));
  const entry = require.resolve('s3rver');
  const script = `
    const S3rver = require(${JSON.stringify(entry)});
    new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: ${JSON.stringify(dir)},
      configureBuckets: [{ name: ${JSON.stringify(bucket)}, configs: [] }] })
      .run().then((addr) => process.stdout.write(JSON.stringify({ port: addr.port }) + '\\n'));
  `;
  const child: ChildProcess = spawn(process.execPath, ['--openssl-legacy-provider', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve, reject) => {
    let buf = '';
    child.stdout!.on('data', (c: Buffer) => {
      buf += c.toString();
      const nl = buf.indexOf('\n');
      if (nl >= 0) resolve((JSON.parse(buf.slice(0, nl)) as { port: number }).port);
    });
    child.on('exit', (code) => reject(new Error(`s3rver exited with ${code}`)));
  });
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    bucket,
    client: () => new S3Client({
      endpoint,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    }),
    close: async () => {
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill();
      await exited;
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
