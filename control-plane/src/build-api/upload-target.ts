/** What an upload grant names and who signs it (upload-signer.ts chooses the signer). */

/** One object a build may write: where in the bucket, how many bytes, with which headers. */
export interface UploadTarget {
  deploymentId: string;
  bucketKey: string;
  size: number;
  contentType: string;
  cacheControl: string;
}

export interface UploadSigner {
  /** The URL and headers that write `target` until `until` (signed at `now`); relative URLs are the control plane's. */
  sign(target: UploadTarget, now: Date, until: Date): Promise<{ url: string; headers: Record<string, string> }>;
}
