/**
 * Fairness between organizations at claim time: start-time fair queuing (SFQ) over builds.
 *
 * Each organization has a finish tag F; the system has a virtual time V. An organization with
 * runnable work gets the start tag S = max(V, F). The claim serves the organization with the
 * smallest S (ties: the one whose oldest runnable deployment waited longest), then sets V = S and
 * F = S + 1 / weight. So, while several organizations have work queued, builds are handed out in
 * proportion to their weights whatever the number of projects each has queued: one organization
 * pushing hundreds of projects at once gets its share, and a small one's next build waits for at
 * most about one build of every other busy organization. An organization that was idle re-enters
 * at V: idle time earns no credit to burst with later. Within an organization, its projects go
 * oldest first.
 *
 * Weights follow the plan (`PLAN_WEIGHTS`): a team organization gets four builds for a free one's
 * one while both have work waiting. Weights only divide the fleet when it is busy; an idle fleet
 * builds anyone's job at once.
 *
 * This class is the rule in memory (the fleet simulation and tests use it); claims keep the same
 * tags in the database (queue-heads.ts: `chargeOrg`, `readyOrgs`) so that a restart keeps them
 * and every control plane sharing the database follows the same turns.
 */
import type { PlanId } from '../db/models/organization.ts';

/** Builds an organization gets per turn while others wait, by plan. */
export const PLAN_WEIGHTS: Record<PlanId, number> = { free: 1, pro: 2, team: 4, enterprise: 8 };

/** Start-time fair queuing state: one finish tag per organization and the virtual time. */
export class FairShare {
  private virtual = 0;
  private readonly finish = new Map<string, number>();

  /** The start tag `org` would be served at now (smaller is sooner). */
  startTag(org: string): number {
    return Math.max(this.virtual, this.finish.get(org) ?? 0);
  }

  /** Records that `org` was served one build. */
  charge(org: string, weight: number): void {
    const start = this.startTag(org);
    this.virtual = start;
    this.finish.set(org, start + 1 / Math.max(weight, 1e-6));
    // An organization whose tag fell behind the virtual time is the same as one never seen.
    if (this.finish.size > 1000) for (const [k, f] of this.finish) if (f <= this.virtual) this.finish.delete(k);
  }

  /**
   * Orders `groups` (one per organization, each with the time its oldest runnable deployment has
   * waited since) by start tag, then by that time: the order the claim tries them in.
   */
  order<G extends { org: string; oldest: number }>(groups: G[]): G[] {
    return [...groups].sort((a, b) => this.startTag(a.org) - this.startTag(b.org) || a.oldest - b.oldest || (a.org < b.org ? -1 : 1));
  }
}
