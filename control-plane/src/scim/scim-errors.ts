/**
 * SCIM errors (RFC 7644 section 3.12): `{ schemas, status, scimType?, detail }` as
 * `application/scim+json`. Every error of a SCIM route has this shape, authentication and plan
 * gates included, and also keeps the platform's `error` and `message` (and `upgrade_url` when
 * there is one), so generic API clients read it too.
 */
import { AppError } from '../errors.ts';

export const SCIM_CONTENT_TYPE = 'application/scim+json; charset=utf-8';
export const ERROR_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:Error';

export type ScimType = 'invalidFilter' | 'tooMany' | 'uniqueness' | 'mutability' | 'invalidSyntax' | 'invalidPath' | 'noTarget' | 'invalidValue' | 'invalidVers' | 'sensitive';

/** Platform codes for SCIM error types. */
const CODES: Record<ScimType, string> = {
  invalidFilter: 'invalid_filter', tooMany: 'too_many', uniqueness: 'conflict', mutability: 'invalid_request', invalidSyntax: 'invalid_request',
  invalidPath: 'invalid_request', noTarget: 'invalid_request', invalidValue: 'invalid_request', invalidVers: 'invalid_request', sensitive: 'invalid_request',
};

/** An error a SCIM route throws; `scimType` goes into the body. */
export function scimError(status: number, scimType: ScimType | undefined, detail: string): AppError {
  const code = scimType ? CODES[scimType] : status === 404 ? 'not_found' : status === 412 ? 'precondition_failed' : 'invalid_request';
  return new AppError(status, code, detail, { extra: scimType ? { scimType } : {} });
}

/** The body of any error on a SCIM route (route.ts `formatError`). */
export function formatScimError(err: AppError): { body: Record<string, unknown>; contentType: string } {
  const { scimType, ...extra } = (err.extra ?? {}) as { scimType?: string };
  return {
    body: {
      schemas: [ERROR_SCHEMA], status: String(err.status), ...(scimType ? { scimType } : {}), detail: err.message,
      error: err.code, message: err.message, ...extra,
    },
    contentType: SCIM_CONTENT_TYPE,
  };
}
