import { Readable } from 'node:stream';
import {
  CopyObjectCommand, DeleteObjectsCommand, GetObjectCommand, HeadObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { appError } from '../errors.ts';
import { cacheControlFor, contentTypeFor } from './content-type.ts';
import { limitConcurrency } from './limit-concurrency.ts';
import { assertKey, sizedChunks, type ObjectStore, type PutOptions } from './object-store.ts';

export interface S3StoreOptions {
  bucket: string;
  /** A ready client, or the config to make one. */
  client?: S3Client;
  config?: S3ClientConfig;
  /** Key prefix inside the bucket, e.g. `prod/`; default none. */
  prefix?: string;
  /** Requests in flight at most (default 16). */
  concurrency?: number;
}

/**
 * The object store on any S3 API. Every put sets Content-Type and Cache-Control (defaults from
 * the key, see `content-type.ts`). Requests are bounded by `concurrency`; deletes go in
 * batches of 1,000 keys. Checksums are computed only when the API requires them, which keeps
 * S3-compatible servers that do not speak aws-chunked bodies correct.
 */
export function createS3Store(opts: S3StoreOptions): ObjectStore {
  const client = opts.client ?? new S3Client({ requestChecksumCalculation: 'WHEN_REQUIRED', responseChecksumValidation: 'WHEN_REQUIRED', ...opts.config });
  const limit = limitConcurrency(opts.concurrency ?? 16);
  const prefix = opts.prefix ?? '';
  const Bucket = opts.bucket;
  const k = (key: string) => { assertKey(key); return prefix + key; };
  const send = async (key: string, Body: Uint8Array | Readable, o: PutOptions, ContentLength?: number, abortSignal?: AbortSignal) => {
    await client.send(new PutObjectCommand({
      Bucket, Key: k(key), Body, ContentLength,
      ContentType: o.contentType ?? contentTypeFor(key),
      CacheControl: o.cacheControl ?? cacheControlFor(key),
    }), { abortSignal }).catch((err) => { throw appError('store_write_failed', `Could not write ${key}`, err); });
  };
  return {
    put: (key, bytes, o = {}) => limit(() => send(key, bytes, o)),
    // Not bounded by `limit`: an upload arrives as slowly as its sender sends it. A source that
    // fails or is not the size declared aborts the request, so S3 keeps nothing of it.
    putStream: async (key, body, o = {}) => {
      const abort = new AbortController();
      const source = Readable.from(sizedChunks(body)).on('error', (err) => abort.abort(err));
      await send(key, source, o, body.size, abort.signal);
    },
    get: (key) => limit(async () => {
      try {
        const res = await client.send(new GetObjectCommand({ Bucket, Key: k(key) }));
        return await res.Body!.transformToByteArray();
      } catch (err) {
        if (isMissing(err)) return undefined;
        throw appError('store_read_failed', `Could not read ${key}`, err);
      }
    }),
    head: (key) => limit(async () => {
      try {
        const res = await client.send(new HeadObjectCommand({ Bucket, Key: k(key) }));
        return { etag: (res.ETag ?? '').replaceAll('"', ''), size: res.ContentLength ?? 0, contentType: res.ContentType };
      } catch (err) {
        if (isMissing(err)) return undefined;
        throw appError('store_read_failed', `Could not read ${key}`, err);
      }
    }),
    list: async (sub) => {
      const keys: string[] = [];
      let token: string | undefined;
      do {
        const res = await limit(() => client.send(new ListObjectsV2Command({ Bucket, Prefix: prefix + sub, ContinuationToken: token })))
          .catch((err) => { throw appError('store_read_failed', `Could not list ${sub}`, err); });
        for (const o of res.Contents ?? []) if (o.Key) keys.push(o.Key.slice(prefix.length));
        token = res.IsTruncated ? res.NextContinuationToken : undefined;
      } while (token);
      return keys.sort();
    },
    // A server-side copy: the bytes never leave the store (S3 copies up to 5 GB in one request;
    // an object is at most 512 MB here). Its metadata (Content-Type, Cache-Control) is copied too.
    copy: (from, to) => limit(async () => {
      const Key = k(to);
      const CopySource = `${Bucket}/${k(from).split('/').map(encodeURIComponent).join('/')}`;
      try {
        await client.send(new CopyObjectCommand({ Bucket, Key, CopySource, MetadataDirective: 'COPY' }));
        return true;
      } catch (err) {
        if (isMissing(err)) return false;
        throw appError('store_write_failed', `Could not copy ${from} to ${to}`, err);
      }
    }),
    delete: async (keys) => {
      const batches: string[][] = [];
      for (let i = 0; i < keys.length; i += 1000) batches.push(keys.slice(i, i + 1000));
      await Promise.all(batches.map((batch) => limit(async () => {
        const res = await client.send(new DeleteObjectsCommand({ Bucket, Delete: { Quiet: true, Objects: batch.map((key) => ({ Key: k(key) })) } }))
          .catch((err) => { throw appError('store_delete_failed', `Could not delete ${batch.length} objects`, err); });
        if (res.Errors?.length) throw appError('store_delete_failed', `Could not delete ${res.Errors[0].Key}: ${res.Errors[0].Message}`);
      })));
    },
  };
}

function isMissing(err: unknown): boolean {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e.name === 'NoSuchKey' || e.name === 'NotFound' || e.$metadata?.httpStatusCode === 404;
}
