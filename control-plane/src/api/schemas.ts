/**
 * Request and response schemas of the public API. They validate requests, produce the OpenAPI
 * document, and (in tests) check responses.
 */
import { z } from 'zod';
import { DEPLOYMENT_STATUSES } from '../db/models/deployment.ts';
import { PROJECT_STATUSES } from '../db/models/project.ts';
import { limitQuery } from '../http/list-limit.ts';
import { branchSchema } from './branch-name.ts';

export const uuidParam = z.string().describe('Resource id (uuid)');
export const projectParams = z.object({ id: uuidParam });

const dateTime = z.iso.datetime();

export const projectSchema = z.object({
  id: z.string(),
  name: z.string(),
  slug: z.string(),
  status: z.enum(PROJECT_STATUSES).describe(
    '`pending` until the first deployment; `building` while a production deployment builds; `active` while a site is live, '
      + 'also after a later deployment failed (the last deployed site is still served; the failure shows on the deployment); '
      + '`failed` only when a deployment failed and no deployment was ever live. Branch previews never change it',
  ),
  created_at: dateTime,
  github_repo: z.string().nullable().describe('Own GitHub repository (owner/name, as GitHub spells it), read through a GitHub App installation of the organization; null: the platform hosts the repository'),
  custom_domain: z.string().nullable(),
  github_branch: z.string().nullable(),
  last_deploy_at: dateTime.nullable(),
}).meta({ id: 'Project' });

export const SLUG_RULE = 'must be 1-63 lowercase letters, digits or hyphens, not starting or ending with a hyphen';
export const slugSchema = z.string().regex(/^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/, { error: SLUG_RULE });
export const NAME_RULE = 'must be 1-80 characters';
export const nameSchema = z.string().trim().min(1, { error: NAME_RULE }).max(80, { error: NAME_RULE });
export const REPO_RULE = 'must be in owner/name form';
/** `owner/name` of a GitHub repository, any letter case; whether the organization may connect it is GitHub's to say (github/resolve-repo.ts). */
export const githubRepoSchema = z.string().regex(/^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})\/(?!\.\.?$)[A-Za-z0-9._-]{1,100}$/, { error: REPO_RULE })
  .describe('GitHub repository as owner/name; it must be readable through a GitHub App installation of the organization');
export const createProjectBody = z.strictObject({
  name: nameSchema,
  slug: slugSchema,
  github_repo: githubRepoSchema.optional(),
  github_branch: branchSchema.optional(),
}).meta({ id: 'CreateProject' });

/** A field the API refuses with a message saying where it can be changed instead. */
const dashboardOnly = (message: string) => z.never({ error: message }).optional().describe(`Not accepted: ${message}`);

export const updateProjectBody = z.strictObject({
  name: nameSchema.optional(),
  github_branch: branchSchema.optional(),
  github_repo: githubRepoSchema.optional().describe('Reconnects a project connected to GitHub (see the description)'),
  slug: dashboardOnly('cannot be changed through the API; renames are a dashboard operation'),
  custom_domain: dashboardOnly('cannot be changed through the API; custom domains are a dashboard operation'),
}).meta({ id: 'UpdateProject' });

export const listProjectsQuery = z.object({
  limit: limitQuery(20),
  status: z.enum(PROJECT_STATUSES, { error: `must be one of ${PROJECT_STATUSES.join(', ')}` }).optional(),
});

export const projectListSchema = z.object({ data: z.array(projectSchema), total: z.number().int() });

const booleanFeature = z.object({ type: z.literal('boolean'), enabled: z.boolean() });
const quotaFeature = z.object({ type: z.literal('quota'), quota: z.number().int().nullable(), used: z.number().int(), remaining: z.number().int().nullable() });
export const entitlementsSchema = z.object({
  plan: z.object({ id: z.enum(['free', 'pro', 'team', 'enterprise']), name: z.string() }),
  status: z.string(),
  features: z.record(z.string(), z.union([booleanFeature, quotaFeature])),
  overage: z.array(z.object({
    feature: z.literal('agent_credits_monthly'),
    period_start: z.string().describe('Start of the month (00:00 UTC on the 1st)'),
    period_end: z.string().describe('Start of the next month, when the overage is billed'),
    credits: z.number().int().describe('Credits used past the cap this month (Pro and Team; 0 elsewhere)'),
    unit_price_usd: z.number().describe('Price of one credit past the cap'),
    amount_usd: z.number().describe('What the month\'s overage costs so far'),
  })).describe('The month\'s overage, billed at its end: added to the entitlements object; the other fields are unchanged'),
}).meta({ id: 'Entitlements' });

export const deploymentSchema = z.object({
  id: z.string(),
  status: z.enum(DEPLOYMENT_STATUSES),
  commit_sha: z.string().nullable(),
  project_id: z.string(),
  started_at: dateTime,
  finished_at: dateTime.nullable().describe('null while the deployment is in progress'),
  pages_total: z.number().int().nullable(),
  pages_success: z.number().int().nullable(),
  pages_failed: z.number().int().nullable(),
  error: z.string().nullable().describe('Why the deployment failed (file:line:column where known); null otherwise'),
  warnings: z.array(z.string()).describe(
    'Extension to the spec: what the build reported without failing, one line each (at most 100): docs.json keys mapped or ignored '
      + '(`docs.json: theme: …`), then broken internal links and missing anchors (`docs/a.mdx:12:5: Unexpected link to /x; …`). '
      + 'Empty while the deployment is in progress and when there is nothing to report',
  ),
  redirects_added: z.array(z.object({ from: z.string(), to: z.string() }))
    .describe('Pages this deployment found renamed (Git rename detection): each old URL path (from) now redirects to the new one (to) with 308, until a page or an explicit redirect takes the old path'),
  branch: z.string().nullable().describe(
    'Extension to the spec: the branch this deployment built. A production deployment carries the project\'s `github_branch` (default `main`) '
      + 'as it was when the deployment was queued; a preview deployment carries the previewed branch. Null on deployments recorded before branches were kept',
  ),
  preview_url: z.string().nullable().describe(
    'Extension to the spec: where a preview deployment (pro and up: a push to a branch other than `github_branch`) is served, '
      + '`{slug}--{label}.{SITES_DOMAIN}` with the branch sanitised to a DNS label (docs/paid-features.md, Branch previews). Always null on a production deployment. '
      + 'A preview deployment never changes the production site, its pages (the pages API) or the project\'s `status` and `last_deploy_at`',
  ),
}).meta({ id: 'Deployment' });

export const deploymentParams = z.object({ id: uuidParam, deploymentId: uuidParam });
export const listDeploymentsQuery = z.object({
  limit: limitQuery(20),
  status: z.enum(DEPLOYMENT_STATUSES, { error: `must be one of ${DEPLOYMENT_STATUSES.join(', ')}` }).optional(),
});

export const pageSchema = z.object({
  id: z.string(), path: z.string(), title: z.string(), description: z.string(), version: z.string(),
  source_mdx: z.string(), compiled_html: z.string(), updated_at: dateTime,
}).meta({ id: 'Page' });
export const listPagesQuery = z.object({
  version: z.string().min(1, { error: 'must be a non-empty version label' }).max(100, { error: 'must be at most 100 characters' }).default('latest').describe('Content version label, default latest'),
});

/** Default and largest number of search results (the spec leaves the default open). */
export const SEARCH_DEFAULT_LIMIT = 10;
export const SEARCH_MAX_LIMIT = 50;
export const searchPagesBody = z.strictObject({
  query: z.string({ error: 'must be a string' }).trim().min(1, { error: 'must not be empty' }).max(500, { error: 'must be at most 500 characters' }),
  limit: z.number({ error: `must be an integer from 1 to ${SEARCH_MAX_LIMIT}` }).int({ error: `must be an integer from 1 to ${SEARCH_MAX_LIMIT}` })
    .min(1, { error: `must be an integer from 1 to ${SEARCH_MAX_LIMIT}` }).max(SEARCH_MAX_LIMIT, { error: `must be an integer from 1 to ${SEARCH_MAX_LIMIT}` })
    .default(SEARCH_DEFAULT_LIMIT),
  version: z.string().min(1).max(100).default('latest'),
}).meta({ id: 'SearchPages' });
export const searchResultSchema = z.object({ path: z.string(), title: z.string(), snippet: z.string(), description: z.string() });
