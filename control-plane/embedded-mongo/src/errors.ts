/**
 * The one error type of the embedded server. It carries the MongoDB error code and code name so
 * the command router can answer `{ ok: 0, errmsg, code, codeName }` exactly as mongod does, and
 * drivers raise their usual `MongoServerError`.
 */
export class MongoCommandError extends Error {
  readonly code: number;
  readonly codeName: string;
  /** Extra fields copied into the error reply (for example `keyPattern` and `keyValue` of E11000). */
  readonly extra: Record<string, unknown>;

  constructor(code: number, codeName: string, message: string, extra: Record<string, unknown> = {}, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'MongoCommandError';
    this.code = code;
    this.codeName = codeName;
    this.extra = extra;
  }

  /** The reply document mongod sends for a failed command. */
  toReply(): Record<string, unknown> {
    return { ok: 0, errmsg: this.message, code: this.code, codeName: this.codeName, ...this.extra };
  }
}

/** `BadValue` (2): a malformed argument. */
export const badValue = (message: string): MongoCommandError => new MongoCommandError(2, 'BadValue', message);

/** `NamespaceNotFound` (26). */
export const namespaceNotFound = (ns: string): MongoCommandError => new MongoCommandError(26, 'NamespaceNotFound', `ns does not exist: ${ns}`);

/** `CommandNotFound` (59), with mongod's exact wording. */
export const commandNotFound = (name: string): MongoCommandError => new MongoCommandError(59, 'CommandNotFound', `no such command: '${name}'`);

/** `CursorNotFound` (43). */
export const cursorNotFound = (id: bigint): MongoCommandError => new MongoCommandError(43, 'CursorNotFound', `cursor id ${id} not found`);

/**
 * Wraps anything thrown while evaluating a query, update or pipeline (mingo throws plain errors)
 * into a command error, keeping command errors as they are.
 */
export function toCommandError(err: unknown): MongoCommandError {
  if (err instanceof MongoCommandError) return err;
  const message = err instanceof Error ? err.message : String(err);
  return new MongoCommandError(2, 'BadValue', message, {}, { cause: err });
}
