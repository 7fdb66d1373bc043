/**
 * Dashboard API messages in people's words. The `/v1` API names a refused field by its JSON key
 * ("hostname: must be…"), which is what its callers typed; the dashboard shows `message` to a
 * person, so here a leading field name becomes its label from the shared catalogue
 * ("Domain must be…"). Codes, statuses and extra fields stay as they are: they are the contract.
 */
import { fieldMessage } from '../../dashboard-app/src/shared/labels.ts';
import { AppError } from '../errors.ts';

/** A message that starts with a field path and a colon (`scopes.0: must be…`). */
const FIELD_PREFIX = /^([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z0-9_]+)*): (.+)$/s;

/** The same error with its leading field name said in words; other errors unchanged. */
export function humanizeError(err: unknown): unknown {
  if (!(err instanceof AppError) || !err.expose) return err;
  const m = FIELD_PREFIX.exec(err.message);
  if (!m) return err;
  return new AppError(err.status, err.code, fieldMessage(m[1], m[2]), { extra: err.extra, headers: err.headers });
}
