/** Schemas shared by the dashboard's routes (the edge: they validate requests and describe responses). */
import { z } from 'zod';
import { PLAN_IDS } from '../db/models/organization.ts';
import { isRoleName, type Role } from '../db/models/membership.ts';
import { NAMED_ROLES, PERMISSIONS } from '../roles/roles.ts';

/** Lower-cased and trimmed, so one address is one account however it is typed. */
export const emailSchema = z.string().trim().toLowerCase().max(254, 'must be at most 254 characters').pipe(z.email({ message: 'must be an email address' }));
export const passwordSchema = z.string().min(10, 'must be at least 10 characters').max(200, 'must be at most 200 characters');
export const nameSchema = z.string().trim().min(1, 'must be 1-80 characters').max(80, 'must be 1-80 characters');
/** A built-in role, the `member` alias, or a custom role as `custom:<id>` (roles/roles.ts). */
export const roleSchema = z.string().refine(isRoleName, { error: `Invalid option: expected one of ${NAMED_ROLES.map((r) => JSON.stringify(r)).join('|')} or "custom:<id>"` })
  .transform((r) => r as Role).meta({ id: 'DashboardRole' });

export const sessionResponse = z.object({
  user: z.object({ id: z.string(), email: z.string(), name: z.string() }),
  organization: z.object({ id: z.string(), name: z.string(), handle: z.string(), plan: z.enum(PLAN_IDS) }),
  role: roleSchema,
  permissions: z.array(z.enum(PERMISSIONS)).describe('What this member may do now (their role plus their SCIM groups\' roles); the app hides what is missing'),
  csrf_token: z.string().describe('Send as X-CSRF-Token on every POST, PUT, PATCH and DELETE'),
}).meta({ id: 'DashboardSession' });

export const noContent = { 204: { description: 'Done' } };
