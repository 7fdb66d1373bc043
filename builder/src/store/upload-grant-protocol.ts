/**
 * The wire shape of upload grants, one zod schema each for both sides: a builder asks the control
 * plane's `POST /internal/v1/jobs/:id/uploads` (build token, fencing) for the puts it is about to
 * make, and sends each object's bytes straight to the URL it is granted, with the headers it is
 * told to send (granted-store.ts). Keys are relative to the site, as on the object routes.
 */
import { z } from 'zod';

/** Keys one grants request may name at most. */
export const MAX_GRANTS_PER_REQUEST = 256;

/** A header value: printable ASCII, so nothing can be smuggled into another header. */
const headerValue = z.string().min(1).max(256).regex(/^[\x20-\x7e]+$/, 'must be printable ASCII');

export const grantRequest = z.strictObject({
  objects: z.array(z.strictObject({
    key: z.string().min(1).max(1024),
    size: z.number().int().min(0),
    /** Default: from the key (`contentTypeFor`). */
    content_type: headerValue.optional(),
    /** Default: from the key (`cacheControlFor`). */
    cache_control: headerValue.optional(),
  })).min(1).max(MAX_GRANTS_PER_REQUEST, `must name at most ${MAX_GRANTS_PER_REQUEST} objects`),
});
export type GrantRequest = z.infer<typeof grantRequest>;

export const grantAnswer = z.object({
  /** How long every grant of the answer stays usable, from when it was made. */
  expires_in_ms: z.number().int().min(0),
  /** One per object asked for, in the same order. */
  objects: z.array(z.object({
    key: z.string(),
    /** Where to PUT the bytes: absolute (a store), or relative to the grants route (the control plane). */
    url: z.string(),
    /** Headers to send besides Content-Length, which must be the size asked for. */
    headers: z.record(z.string(), z.string()),
  })),
});
export type GrantAnswer = z.infer<typeof grantAnswer>;
