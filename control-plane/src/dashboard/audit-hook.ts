/** Recording a signed-in user's dashboard action in the audit log (audit/record.ts), from a route handler. */
import type Koa from 'koa';
import { recordAudit, type AuditInput } from '../audit/record.ts';
import type { Deps } from '../http/route.ts';
import { requestIp, type DashboardSession } from './session-auth.ts';

/** Appends `action` on `target` by the session's user, with the request's source address hashed. */
export function auditAction(ctx: Koa.Context, deps: Deps, session: DashboardSession, action: AuditInput['action'], target: AuditInput['target'], details?: Record<string, unknown>): Promise<void> {
  return recordAudit(deps, { orgId: session.orgId, actorUserId: session.userId, action, target, details, ip: requestIp(ctx, deps.env) });
}
