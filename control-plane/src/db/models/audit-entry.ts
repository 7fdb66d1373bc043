import { randomUUID } from 'node:crypto';
import { Schema, type InferSchemaType } from 'mongoose';

/** Every action the audit log records (dashboard, CLI and deployment triggers). */
export const AUDIT_ACTIONS = [
  'session.signed_in',
  'api_key.created', 'api_key.updated', 'api_key.deleted',
  'project.created', 'project.renamed', 'project.deleted',
  'domain.added',
  'member.invited', 'member.role_changed', 'member.removed',
  'role.created', 'role.updated', 'role.deleted', 'scim_group.role_set',
  'plan.changed',
  'deployment.triggered',
  'site_password.set', 'site_password.removed', 'reader_auth.set', 'reader_auth.removed',
  'webhook.created', 'webhook.deleted',
  'github.linked', 'github.unlinked',
  'sso.configured', 'sso.removed', 'sso.require_changed', 'sso.domain_added', 'sso.domain_verified', 'sso.domain_removed',
  'sso.signed_in', 'sso.sign_in_failed', 'sso.member_provisioned', 'session.break_glass',
  'ai_model.set', 'ai_model.removed',
  'agent_run.started', 'agent_run.finished',
  'workflow.created', 'workflow.updated', 'workflow.deleted', 'workflow_run.started', 'workflow_run.published',
  'editor.published', 'editor.merged',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/**
 * One audit log entry: who (`actor_user_id`, or `actor_label` for the operator CLI), in which
 * organization, did what to which target, when, and from where (a keyed hash of the source
 * address, never the address). Append-only: every update and delete is refused below, so the
 * log cannot be edited through the models.
 */
export const auditEntrySchema = new Schema({
  _id: { type: String, default: () => randomUUID() },
  org_id: { type: String, required: true },
  actor_user_id: { type: String, default: null },
  /** Who acted when no dashboard user did: `operator` (the `npm run orgs` CLI) or `git push`. */
  actor_label: { type: String, default: null },
  action: { type: String, enum: AUDIT_ACTIONS, required: true },
  /** What was acted on: its kind (`project`, `api_key`, ...), id and name at the time. */
  target_type: { type: String, required: true },
  target_id: { type: String, default: null },
  target_name: { type: String, default: null },
  /** Free-form details of the change (e.g. `{ from: 'pro', to: 'free' }`). */
  details: { type: Schema.Types.Mixed, default: null },
  ip_hash: { type: String, default: null },
  at: { type: Date, required: true },
}, { versionKey: false });
auditEntrySchema.index({ org_id: 1, at: -1, _id: -1 });

// A pre hook that throws fails the query before it reaches the database.
const refuse = () => { throw new Error('The audit log is append-only'); };
for (const op of ['updateOne', 'updateMany', 'findOneAndUpdate', 'replaceOne', 'findOneAndReplace', 'deleteOne', 'deleteMany', 'findOneAndDelete'] as const) {
  auditEntrySchema.pre(op, refuse);
}

export type AuditEntry = InferSchemaType<typeof auditEntrySchema> & { _id: string };
