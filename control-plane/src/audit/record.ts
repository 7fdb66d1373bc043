/**
 * The audit log's one writer. Entries are append-only (db/models/audit-entry.ts) and carry a
 * keyed hash of the source address: the same address gives the same hash within one install, so
 * an owner can see that two actions came from one place, but the address cannot be recovered by
 * hashing every IPv4 address, since the key never leaves the database.
 */
import { createHmac } from 'node:crypto';
import type { AuditAction } from '../db/models/audit-entry.ts';
import type { Models } from '../db/models/index.ts';
import { serverSecret } from '../secrets/server-secret.ts';

/** What `recordAudit` needs of the control plane. */
export interface AuditDeps { m: Models; now(): Date }

export interface AuditInput {
  orgId: string;
  /** The dashboard user who acted; null when the operator CLI or a Git push did. */
  actorUserId: string | null;
  /** Who acted when no user did, e.g. `operator` or `git push`. */
  actorLabel?: string;
  action: AuditAction;
  target: { type: string; id?: string | null; name?: string | null };
  details?: Record<string, unknown>;
  /** The source address; omitted for actions without one (the CLI). */
  ip?: string | null;
}

/** The keyed hash of a source address as stored in the audit log. */
export async function hashAuditIp(m: Models, ip: string): Promise<string> {
  const key = await serverSecret(m, 'audit-ip-hash');
  return createHmac('sha256', key).update(ip).digest('hex').slice(0, 32);
}

/**
 * Appends one audit entry. Recording never fails the action it records: an error is logged to
 * stderr and swallowed (the action has already happened; refusing it afterwards would lie).
 */
export async function recordAudit(deps: AuditDeps, input: AuditInput): Promise<void> {
  try {
    await deps.m.AuditEntry.create({
      org_id: input.orgId,
      actor_user_id: input.actorUserId,
      actor_label: input.actorLabel ?? null,
      action: input.action,
      target_type: input.target.type,
      target_id: input.target.id ?? null,
      target_name: input.target.name ?? null,
      details: input.details ?? null,
      ip_hash: input.ip ? await hashAuditIp(deps.m, input.ip) : null,
      at: deps.now(),
    });
  } catch (err) {
    console.error('audit log write failed', err);
  }
}
