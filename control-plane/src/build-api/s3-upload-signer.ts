/**
 * Presigned S3 PUTs for a build's uploads: the bytes go from the builder straight to the bucket,
 * never through the control plane. Content-Length, Content-Type and Cache-Control are signed, so
 * the URL writes exactly the object granted: another size, type or key breaks the signature, and
 * S3 refuses it after `X-Amz-Expires`.
 */
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { Env } from '../env.ts';
import type { UploadSigner } from './upload-target.ts';

/** Headers the signature covers besides Host: a request with others' values is refused by S3. */
const SIGNED_HEADERS = new Set(['content-length', 'content-type', 'cache-control']);

/** The signer for the bucket the platform's store uses (the same settings as `storeFromEnv`), or undefined without S3. */
export function s3UploadSigner(env: Pick<Env, 'S3_BUCKET' | 'S3_ENDPOINT' | 'S3_REGION' | 'S3_ACCESS_KEY_ID' | 'S3_SECRET_ACCESS_KEY' | 'S3_FORCE_PATH_STYLE'>): UploadSigner | undefined {
  const Bucket = env.S3_BUCKET;
  if (!Bucket) return undefined;
  const credentials = env.S3_ACCESS_KEY_ID && env.S3_SECRET_ACCESS_KEY ? { accessKeyId: env.S3_ACCESS_KEY_ID, secretAccessKey: env.S3_SECRET_ACCESS_KEY } : undefined;
  const client = new S3Client({
    region: env.S3_REGION ?? 'us-east-1', endpoint: env.S3_ENDPOINT, forcePathStyle: env.S3_FORCE_PATH_STYLE === true, credentials,
    requestChecksumCalculation: 'WHEN_REQUIRED', responseChecksumValidation: 'WHEN_REQUIRED',
  });
  return {
    async sign(target, now, until) {
      const { bucketKey: Key, size: ContentLength, contentType: ContentType, cacheControl: CacheControl } = target;
      // Whole seconds, rounded down from the signing second: S3's expiry is never past `until`.
      const expiresIn = Math.max(1, Math.floor((until.getTime() - now.getTime()) / 1000));
      const url = await getSignedUrl(client, new PutObjectCommand({ Bucket, Key, ContentLength, ContentType, CacheControl }), { expiresIn, signingDate: now, signableHeaders: SIGNED_HEADERS });
      return { url, headers: { 'content-type': ContentType, 'cache-control': CacheControl } };
    },
  };
}
