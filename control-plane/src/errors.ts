/**
 * The control plane's one error type, mapped to the API's `{ error, message }` body by the
 * first middleware (http/error-middleware.ts). `expose: false` errors are logged, never echoed.
 */
export class AppError extends Error {
  readonly status: number;
  readonly code: string;
  readonly expose: boolean;
  /** Extra fields merged into the error body (e.g. `upgrade_url`). */
  readonly extra?: Record<string, unknown>;
  /** Response headers to set with the error (e.g. `Retry-After`). */
  readonly headers?: Record<string, string>;

  constructor(status: number, code: string, message: string, opts: { expose?: boolean; extra?: Record<string, unknown>; headers?: Record<string, string>; cause?: unknown } = {}) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = 'AppError';
    this.status = status;
    this.code = code;
    this.expose = opts.expose ?? status < 500;
    this.extra = opts.extra;
    this.headers = opts.headers;
  }
}

/** 400 `invalid_request` naming the field and the rule. */
export const invalid = (field: string, rule: string) =>
  new AppError(400, 'invalid_request', field ? `${field}: ${rule}` : rule);

export const unauthorized = (message: string) => new AppError(401, 'unauthorized', message);

export const forbidden = (scope: string) =>
  new AppError(403, 'forbidden', `This API key lacks the scope ${scope}`);

/** 404 for a missing resource; another organization's resource answers exactly the same. */
export const notFound = (what: string) => new AppError(404, 'not_found', `${what} not found`);

export const conflict = (message: string) => new AppError(409, 'conflict', message);

export const planRequired = (feature: string, minPlan: string, upgradeUrl: string) =>
  new AppError(402, 'plan_required', `The ${feature} feature needs the ${minPlan} plan or higher`, { extra: { upgrade_url: upgradeUrl } });

export const payloadTooLarge = (limit: string) =>
  new AppError(413, 'payload_too_large', `Request body exceeds the ${limit} limit`);

export const internal = (cause?: unknown) =>
  new AppError(500, 'internal_error', 'Internal server error', { expose: false, cause });
