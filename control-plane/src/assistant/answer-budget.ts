/**
 * Whether a question gets a model's answer or the best matching pages, and what it costs: the
 * plan's `assistant_messages_daily` counts messages a model answered, and one reader (and one
 * address) gets at most a few model answers per site per hour (abuse-limits.ts). A place in the
 * day's quota is taken before the model is asked and given back if it does not answer.
 *
 * Who is asking: the site's own panel sends `X-Folio-Client: site-panel` and an anonymous reader
 * id (`X-Folio-Reader`, 8-64 letters, digits, `-` or `_`, kept in the reader's browser). Past the
 * day's quota the panel's readers get the best matching pages; other clients (the API) get
 * 429 `quota_exceeded` with `Retry-After`, the counter unchanged.
 */
import type http from 'node:http';
import type { Models } from '../db/models/index.ts';
import { consumeQuota, releaseQuota } from '../entitlements/quota.ts';
import { loadOrganization, quotaUsage } from '../entitlements/resolver.ts';
import { AppError } from '../errors.ts';
import type { ReaderAnswers, Reader } from './abuse-limits.ts';

export const CLIENT_HEADER = 'x-folio-client';
export const PANEL_CLIENT = 'site-panel';
export const READER_HEADER = 'x-folio-reader';

/** Why no model answers: none is set up, the plan's day is used up, or this reader's hour is. */
export type NoModelReason = 'no_model' | 'daily_limit' | 'reader_limit';

export interface Budget {
  /** Set when the best matching pages are shown instead of a model's answer. */
  reason?: NoModelReason;
  /** Model answers left today after this one (null: unlimited); valid when a place was taken. */
  remaining: number | null;
  /** Gives the place back (the model failed or stopped before finishing); at most once. */
  giveBack(): Promise<void>;
  /** Model answers left today, read now. */
  left(): Promise<number | null>;
}

/** The reader behind a request: its address and the panel's anonymous id, when well-formed. */
export function readerOf(req: http.IncomingMessage, address: string): Reader {
  const id = req.headers[READER_HEADER];
  return { address, id: typeof id === 'string' && /^[A-Za-z0-9_-]{8,64}$/.test(id) ? id : undefined };
}

/** Whether the request comes from the site's own assistant panel. */
export function fromPanel(req: http.IncomingMessage): boolean {
  return req.headers[CLIENT_HEADER] === PANEL_CLIENT;
}

export interface BudgetInput {
  m: Models;
  orgId: string;
  projectId: string;
  req: http.IncomingMessage;
  reader: Reader;
  readers: ReaderAnswers;
  now: Date;
  /** Whether a model is set up for the organization. */
  model: boolean;
}

const FEATURE = 'assistant_messages_daily';

export async function answerBudget(i: BudgetInput): Promise<Budget> {
  const left = async () => {
    const usage = await quotaUsage(i.m, await loadOrganization(i.m, i.orgId, i.now), FEATURE, i.now);
    return usage.type === 'quota' ? usage.remaining : null;
  };
  const none = (reason: NoModelReason): Budget => ({ reason, remaining: null, giveBack: async () => {}, left });
  if (!i.model) return none('no_model');
  let remaining: number | null;
  try {
    ({ remaining } = await consumeQuota(i.m, i.orgId, FEATURE, 1, i.now));
  } catch (err) {
    if (err instanceof AppError && err.code === 'quota_exceeded' && fromPanel(i.req)) return none('daily_limit');
    throw err;
  }
  let taken = true;
  const giveBack = async () => {
    if (!taken) return;
    taken = false;
    await releaseQuota(i.m, i.orgId, FEATURE, 1, i.now);
  };
  if (!i.readers.take(i.projectId, i.reader, i.now.getTime())) {
    await giveBack();
    return none('reader_limit');
  }
  return { remaining, giveBack, left };
}
