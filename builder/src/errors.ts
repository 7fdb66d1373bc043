/**
 * The builder's one error type. `kind` says whose fault it is:
 * - `user`: bad MDX, bad configuration, a limit exceeded. Final; shown to the customer with
 *   file, line and column where known. Never retried.
 * - `app`: our fault or the environment's (network, storage). Retried by the worker.
 */
export type BuilderErrorKind = 'user' | 'app';

export interface BuilderErrorOptions {
  kind: BuilderErrorKind;
  /** Stable snake_case code, e.g. `invalid_config`, `mdx_syntax`, `repo_too_large`. */
  code: string;
  file?: string;
  line?: number;
  column?: number;
  cause?: unknown;
}

export class BuilderError extends Error {
  readonly kind: BuilderErrorKind;
  readonly code: string;
  readonly file?: string;
  readonly line?: number;
  readonly column?: number;

  constructor(message: string, opts: BuilderErrorOptions) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = 'BuilderError';
    this.kind = opts.kind;
    this.code = opts.code;
    this.file = opts.file;
    this.line = opts.line;
    this.column = opts.column;
  }

  /** `file:line:column: message`, the form shown to customers. */
  override toString(): string {
    const where = [this.file, this.line, this.column].filter((v) => v !== undefined).join(':');
    return where ? `${where}: ${this.message}` : this.message;
  }
}

/** A customer-caused, final error. */
export function userError(code: string, message: string, where: Omit<BuilderErrorOptions, 'kind' | 'code'> = {}): BuilderError {
  return new BuilderError(message, { kind: 'user', code, ...where });
}

/** A platform-side, retryable error wrapping its cause. */
export function appError(code: string, message: string, cause?: unknown): BuilderError {
  return new BuilderError(message, { kind: 'app', code, cause });
}

/**
 * Thrown when the control plane says another worker holds the job now (its lease moved on):
 * stop, report nothing. A signal between the worker's calls, not a failure of the build.
 */
export class LeaseLostError extends Error {
  constructor() { super('lease lost'); this.name = 'LeaseLostError'; }
}
