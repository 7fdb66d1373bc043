/**
 * Reading the audit log: one organization's entries, newest first, filtered by action and actor,
 * paged with a `before` cursor (the id of the last entry of the previous page), so paging stays
 * stable while new entries arrive.
 */
import { z } from 'zod';
import { AUDIT_ACTIONS } from '../db/models/audit-entry.ts';
import type { Models } from '../db/models/index.ts';
import { invalid } from '../errors.ts';

/** The query of `GET /dashboard/api/audit-log`. */
export const auditQuerySchema = z.object({
  action: z.enum(AUDIT_ACTIONS).optional(),
  /** A user id, or `operator` / `git push` for entries no user made. */
  actor: z.string().trim().min(1).max(100).optional(),
  before: z.string().uuid().optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
}).strict();
export type AuditQuery = z.infer<typeof auditQuerySchema>;

/** One entry as the API shows it. */
export interface AuditEntryView {
  id: string;
  action: string;
  actor: { user_id: string | null; label: string | null };
  target: { type: string; id: string | null; name: string | null };
  details: Record<string, unknown> | null;
  ip_hash: string | null;
  at: string;
}

/** A page of entries and the cursor of the next page (null on the last). */
export async function listAudit(m: Models, orgId: string, q: AuditQuery): Promise<{ data: AuditEntryView[]; next_before: string | null }> {
  const filter: Record<string, unknown> = { org_id: orgId };
  if (q.action) filter.action = q.action;
  if (q.actor) filter.$or = [{ actor_user_id: q.actor }, { actor_label: q.actor }];
  if (q.before) {
    const cursor = await m.AuditEntry.findOne({ _id: q.before, org_id: orgId }, { at: 1 }).lean();
    if (!cursor) throw invalid('before', 'Unknown entry id; expected the next_before of a previous page');
    filter.$and = [{ $or: [{ at: { $lt: cursor.at } }, { at: cursor.at, _id: { $lt: cursor._id } }] }];
  }
  const rows = await m.AuditEntry.find(filter).sort({ at: -1, _id: -1 }).limit(q.limit + 1).lean();
  const page = rows.slice(0, q.limit);
  return {
    data: page.map((e) => ({
      id: e._id,
      action: e.action,
      actor: { user_id: e.actor_user_id ?? null, label: e.actor_label ?? null },
      target: { type: e.target_type, id: e.target_id ?? null, name: e.target_name ?? null },
      details: (e.details as Record<string, unknown> | null) ?? null,
      ip_hash: e.ip_hash ?? null,
      at: new Date(e.at).toISOString(),
    })),
    next_before: rows.length > q.limit ? page[page.length - 1]._id : null,
  };
}
