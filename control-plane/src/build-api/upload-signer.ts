/**
 * Who signs a build's uploads (upload-grants.ts): the S3 presigner when the platform's store is
 * S3 (`S3_BUCKET`, s3-upload-signer.ts), so the bytes go from the builder straight to the bucket;
 * otherwise the control plane's own signed upload route (local-upload-grant.ts), which writes
 * the one key into the local store. Either way a grant names one bucket key, its size, its
 * Content-Type and Cache-Control and an expiry, and reaches nothing else.
 */
import type { Deps } from '../http/route.ts';
import { localUploadSigner } from './local-upload-grant.ts';
import { s3UploadSigner } from './s3-upload-signer.ts';
import type { UploadSigner } from './upload-target.ts';

const signers = new WeakMap<Deps['env'], UploadSigner>();

/** The platform's signer, made once per environment. */
export function uploadSignerOf(deps: Deps): UploadSigner {
  let signer = signers.get(deps.env);
  if (!signer) signers.set(deps.env, signer = s3UploadSigner(deps.env) ?? localUploadSigner(deps.m));
  return signer;
}
