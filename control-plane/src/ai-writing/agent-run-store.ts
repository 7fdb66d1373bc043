/**
 * Writing agent runs (collection `agent_runs`): the task, who asked, the branch the run works on
 * (`agent/<run id>`), each step as it happened, the files it wrote (kept here until they are
 * committed to the branch), the credits and tokens it spent, and how it ended. Registered on the
 * database connection the first time it is asked for, as the model settings are.
 */
import { randomUUID } from 'node:crypto';
import { Schema, type Model } from 'mongoose';
import type { Models } from '../db/models/index.ts';

export const RUN_STATUSES = ['running', 'finished', 'failed', 'cancelled', 'stopped'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

const stepSchema = new Schema({
  n: { type: Number, required: true },
  /** `tool`: a tool call and its outcome; `message`: the model's text; `commit`: the branch moved. */
  kind: { type: String, enum: ['tool', 'message', 'commit'], required: true },
  tool: { type: String, default: null },
  args: { type: Schema.Types.Mixed, default: null },
  ok: { type: Boolean, default: true },
  summary: { type: String, required: true },
  at: { type: Date, required: true },
}, { _id: false });

const writeSchema = new Schema({
  path: { type: String, required: true },
  /** The file's new text; null: the file is deleted (the old side of a move). */
  content: { type: String, default: null },
  renamed_from: { type: String, default: null },
}, { _id: false });

export const agentRunSchema = new Schema({
  _id: { type: String, default: () => randomUUID() },
  org_id: { type: String, required: true },
  project_id: { type: String, required: true, index: true },
  user_id: { type: String, required: true },
  task: { type: String, required: true },
  status: { type: String, enum: RUN_STATUSES, required: true, default: 'running' },
  /** Why the run ended, in words for people (bounds, cancel, failures). */
  outcome: { type: String, default: null },
  branch: { type: String, required: true },
  base_commit: { type: String, default: null },
  steps: { type: [stepSchema], default: () => [] },
  writes: { type: [writeSchema], default: () => [] },
  max_steps: { type: Number, required: true },
  max_credits: { type: Number, required: true },
  credits: { type: Number, default: 0 },
  tokens: { type: Number, default: 0 },
  commit: { type: String, default: null },
  deployment_id: { type: String, default: null },
  preview_url: { type: String, default: null },
  diff: { type: String, default: null },
  cancel_requested: { type: Boolean, default: false },
  created_at: { type: Date, required: true },
  finished_at: { type: Date, default: null },
  /** The self-updating workflow that started the run (its credits are ledgered as `workflow`); null: a writer did. */
  workflow_id: { type: String, default: null },
  /** A workflow run's trigger: `push` (with the code commits), `schedule` or `call`. */
  trigger: { type: Schema.Types.Mixed, default: null },
  /** A workflow run in `direct` mode: the merge of its branch into production (commit, or why not). */
  published_commit: { type: String, default: null },
}, { versionKey: false });
agentRunSchema.index({ workflow_id: 1, created_at: -1 });
agentRunSchema.index({ project_id: 1, created_at: -1 });

export interface AgentStep { n: number; kind: 'tool' | 'message' | 'commit'; tool: string | null; args: unknown; ok: boolean; summary: string; at: Date }
export interface AgentWrite { path: string; content: string | null; renamed_from: string | null }
export interface AgentRun {
  _id: string; org_id: string; project_id: string; user_id: string; task: string; status: RunStatus; outcome: string | null;
  branch: string; base_commit: string | null; steps: AgentStep[]; writes: AgentWrite[]; max_steps: number; max_credits: number;
  credits: number; tokens: number; commit: string | null; deployment_id: string | null; preview_url: string | null; diff: string | null;
  cancel_requested: boolean; created_at: Date; finished_at: Date | null; workflow_id?: string | null;
  trigger?: { kind: string; source_project_id?: string; before?: string | null; after?: string } | null; published_commit?: string | null;
}

export function agentRunModel(m: Models): Model<AgentRun> {
  const connection = m.Organization.db;
  return (connection.models.AgentRun as Model<AgentRun> | undefined) ?? connection.model<AgentRun>('AgentRun', agentRunSchema, 'agent_runs');
}
