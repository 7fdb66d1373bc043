/**
 * The `limit` query parameter every list endpoint takes (the /v1 API's lists and the analytics
 * breakdowns alike), with the same error text everywhere.
 */
import { z } from 'zod';

/** Largest `limit` accepted by list endpoints (the spec leaves it open; 100 keeps pages cheap). */
export const MAX_LIST_LIMIT = 100;

export const limitQuery = (def: number, max = MAX_LIST_LIMIT) => z.coerce.number({ error: `must be an integer from 1 to ${max}` })
  .int({ error: `must be an integer from 1 to ${max}` })
  .min(1, { error: `must be an integer from 1 to ${max}` })
  .max(max, { error: `must be an integer from 1 to ${max}` })
  .default(def)
  .describe(`Maximum number of items, 1-${max}, default ${def}`);
