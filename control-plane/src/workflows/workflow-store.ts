/**
 * Self-updating workflows (collection `workflows`): a trigger plus instructions for the writing
 * agent, on one docs project. The trigger is a push to a code repository (`push`: another project
 * of the same organization whose managed repository on this platform's Git host holds the code,
 * and the branch to follow), a schedule (`schedule`: every N minutes, run by whichever
 * control-plane process takes the workflow's lease first), or only a call (`call`). Each run is
 * a writing agent run (`agent_runs`, with `workflow_id`) whose outcome is a review branch, or the
 * production branch when `publish` is `direct`. Registered on first use, as the agent runs are.
 */
import { randomUUID } from 'node:crypto';
import { Schema, type Model } from 'mongoose';
import type { Models } from '../db/models/index.ts';

export const TRIGGER_KINDS = ['push', 'schedule', 'call'] as const;
export type TriggerKind = (typeof TRIGGER_KINDS)[number];
export const PUBLISH_MODES = ['review', 'direct'] as const;
export type PublishMode = (typeof PUBLISH_MODES)[number];

export const workflowSchema = new Schema({
  _id: { type: String, default: () => randomUUID() },
  org_id: { type: String, required: true },
  project_id: { type: String, required: true, index: true },
  name: { type: String, required: true },
  instructions: { type: String, required: true },
  trigger: { type: String, enum: TRIGGER_KINDS, required: true },
  /** `push`: the code project (same organization, another project) and the branch whose pushes start a run. */
  source_project_id: { type: String, default: null, index: true },
  source_branch: { type: String, default: null },
  /** `schedule`: minutes between runs, and when the next is due. */
  every_minutes: { type: Number, default: null },
  next_run_at: { type: Date, default: null },
  /** The schedule's lease: the process that took the due run, until when (a dead holder's lease lapses). */
  lease_owner: { type: String, default: null },
  lease_until: { type: Date, default: null },
  publish: { type: String, enum: PUBLISH_MODES, required: true, default: 'review' },
  enabled: { type: Boolean, default: true },
  max_steps: { type: Number, required: true },
  max_credits: { type: Number, required: true },
  created_by: { type: String, required: true },
  created_at: { type: Date, required: true },
  updated_at: { type: Date, required: true },
}, { versionKey: false });
workflowSchema.index({ trigger: 1, enabled: 1, next_run_at: 1 });

export interface Workflow {
  _id: string; org_id: string; project_id: string; name: string; instructions: string; trigger: TriggerKind;
  source_project_id: string | null; source_branch: string | null; every_minutes: number | null; next_run_at: Date | null;
  lease_owner: string | null; lease_until: Date | null; publish: PublishMode; enabled: boolean;
  max_steps: number; max_credits: number; created_by: string; created_at: Date; updated_at: Date;
}

export function workflowModel(m: Models): Model<Workflow> {
  const connection = m.Organization.db;
  return (connection.models.Workflow as Model<Workflow> | undefined) ?? connection.model<Workflow>('Workflow', workflowSchema, 'workflows');
}
