/**
 * The object store named by the environment, shared by the control plane, workers and CLI:
 * S3 when `S3_BUCKET` is set (`S3_ENDPOINT`, `S3_REGION`, `S3_ACCESS_KEY_ID`,
 * `S3_SECRET_ACCESS_KEY`, `S3_FORCE_PATH_STYLE`), otherwise a local directory (`localDir`).
 */
import { createLocalDirStore } from './local-dir-store.ts';
import type { ObjectStore } from './object-store.ts';
import { createS3Store } from './s3-store.ts';

export interface StoreEnv {
  S3_BUCKET?: string;
  S3_ENDPOINT?: string;
  S3_REGION?: string;
  S3_ACCESS_KEY_ID?: string;
  S3_SECRET_ACCESS_KEY?: string;
  S3_FORCE_PATH_STYLE?: string | boolean;
}

export function storeFromEnv(env: StoreEnv, localDir: string): ObjectStore {
  if (!env.S3_BUCKET) return createLocalDirStore(localDir);
  return createS3Store({
    bucket: env.S3_BUCKET,
    config: {
      region: env.S3_REGION ?? 'us-east-1',
      ...(env.S3_ENDPOINT ? { endpoint: env.S3_ENDPOINT } : {}),
      forcePathStyle: env.S3_FORCE_PATH_STYLE === true || env.S3_FORCE_PATH_STYLE === 'true',
      ...(env.S3_ACCESS_KEY_ID && env.S3_SECRET_ACCESS_KEY
        ? { credentials: { accessKeyId: env.S3_ACCESS_KEY_ID, secretAccessKey: env.S3_SECRET_ACCESS_KEY } }
        : {}),
    },
  });
}
