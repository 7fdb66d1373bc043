/**
 * Organization administration, used by `npm run orgs` and the first-start bootstrap. Not part
 * of the public API: organizations and plans are managed by the dashboard and billing.
 */
import type { Models, Organization } from '../db/models/index.ts';
import { PLAN_IDS, type PlanId } from '../db/models/organization.ts';
import { recordAudit } from '../audit/record.ts';
import { AppError } from '../errors.ts';
import { nextPeriodStart } from '../entitlements/periods.ts';
import { PLAN_ORDER } from '../entitlements/plans.ts';

const HANDLE = /^[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])?$/;

export function assertPlan(plan: string): PlanId {
  if (!(PLAN_IDS as readonly string[]).includes(plan)) throw new AppError(400, 'invalid_request', `plan: Unexpected "${plan}"; expected one of ${PLAN_IDS.join(', ')}`);
  return plan as PlanId;
}

export async function createOrganization(m: Models, handle: string, plan: PlanId, name = handle): Promise<Organization> {
  if (!HANDLE.test(handle)) throw new AppError(400, 'invalid_request', 'org: must be lowercase letters, digits or hyphens');
  try {
    return (await m.Organization.create({ handle, name, plan })).toObject() as Organization;
  } catch (err: any) {
    if (err?.code === 11000) throw new AppError(409, 'conflict', `org: "${handle}" already exists`);
    throw err;
  }
}

export async function findOrganization(m: Models, handle: string): Promise<Organization> {
  const org = await m.Organization.findOne({ handle }).lean();
  if (!org) throw new AppError(404, 'not_found', `organization "${handle}" not found`);
  return org as Organization;
}

export interface PlanChange { org: Organization; effective: 'now' | Date }

/**
 * Changes an organization's plan. An upgrade applies at once and keeps the period's usage
 * (quota rule 5). A downgrade takes effect at the end of the billing period, 00:00 UTC on the
 * next 1st (rule 6), unless `immediate` is set (an operator's correction). The change is
 * written to the organization's audit log with the operator as actor.
 */
export async function changePlan(m: Models, handle: string, plan: PlanId, now: Date, immediate = false): Promise<PlanChange> {
  const org = await findOrganization(m, handle);
  const upgrade = PLAN_ORDER.indexOf(plan) >= PLAN_ORDER.indexOf(org.plan as PlanId);
  if (upgrade || immediate) {
    const updated = await m.Organization.findOneAndUpdate({ _id: org._id }, { $set: { plan, pending_plan: null, pending_plan_at: null } }, { returnDocument: 'after' }).lean();
    await auditPlanChange(m, org, plan, 'now', now);
    return { org: updated as Organization, effective: 'now' };
  }
  const at = nextPeriodStart('month', now);
  const updated = await m.Organization.findOneAndUpdate({ _id: org._id }, { $set: { pending_plan: plan, pending_plan_at: at } }, { returnDocument: 'after' }).lean();
  await auditPlanChange(m, org, plan, at, now);
  return { org: updated as Organization, effective: at };
}

function auditPlanChange(m: Models, org: Organization, plan: PlanId, effective: 'now' | Date, now: Date): Promise<void> {
  return recordAudit({ m, now: () => now }, {
    orgId: org._id, actorUserId: null, actorLabel: 'operator', action: 'plan.changed',
    target: { type: 'organization', id: org._id, name: org.handle },
    details: { from: org.plan, to: plan, effective: effective === 'now' ? 'now' : effective.toISOString() },
  });
}

/** Every organization with its plan (and a pending downgrade), by handle. */
export async function listOrganizations(m: Models): Promise<Array<{ handle: string; name: string; plan: string; pending_plan: string | null }>> {
  const orgs = await m.Organization.find({}).sort({ handle: 1 }).lean();
  return orgs.map((o) => ({ handle: o.handle, name: o.name ?? o.handle, plan: o.plan, pending_plan: o.pending_plan ?? null }));
}
