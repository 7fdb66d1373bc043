/**
 * The words people read for the platform's internal names: plan features and quotas, analytics
 * dimensions and metrics, deployment triggers and statuses, roles and request fields. The API
 * keeps its snake_case names (they are the contract); the dashboard and every server message a
 * person reads (plan limits, validation) take their words from here, so a name is said one way
 * everywhere. Text only, no imports: the browser bundle and the server import it alike.
 */

/** A boolean plan feature: its name, what it gives, and whether the product has it yet. */
export interface FeatureLabel {
  label: string;
  description: string;
  /**
   * `false` for features the plan table lists but the product does not have yet: the plan page
   * says "coming soon" instead of selling them as included.
   */
  available: boolean;
}

/** Every boolean feature of the plan table (entitlements/plans.ts). */
export const FEATURE_LABELS: Record<string, FeatureLabel> = {
  mcp_server: { label: 'MCP server', description: 'AI tools read your docs through the Model Context Protocol.', available: true },
  llm_text_export: { label: 'Text exports for AI', description: 'llms.txt, llms-full.txt and a Markdown copy of every page.', available: true },
  web_editor: { label: 'Web editor', description: 'Write and publish pages in the browser: a file tree, drafts saved as you type, and Publish to Git.', available: true },
  live_preview: { label: 'Live preview', description: 'The site on your computer while you write, updated on every save.', available: true },
  basic_analytics: { label: 'Analytics', description: 'Views, visitors, searches, referrers and AI readers.', available: true },
  audience_split: { label: 'Content for people or for AI', description: 'Show parts of a page only to readers, or only to AI tools.', available: true },
  preview_deployments: { label: 'Branch previews', description: 'Every branch gets its own preview site.', available: true },
  inline_ai: { label: 'AI writing help', description: 'Select text in the editor to rewrite, shorten, expand, fix, translate or explain it, or write from a prompt; the suggestion shows as a change to accept or reject.', available: true },
  multi_user_collaboration: { label: 'Editing together', description: "Several people edit the same page at once in the web editor, with each person's cursor shown live.", available: true },
  writing_agent: { label: 'Writing agent', description: 'Give a task; an agent edits pages on a review branch, builds a preview and shows the diff for you to merge.', available: true },
  password_protection: { label: 'Password-protected sites', description: 'Readers need a password to open the site.', available: true },
  auth_gated_pages: { label: 'Sign-in for readers', description: 'Pages only signed-in readers may open, through your identity provider or your own app.', available: true },
  outgoing_webhooks: { label: 'Webhooks', description: 'Your services hear about deployments as they happen.', available: true },
  chat_notifications: { label: 'Chat notifications', description: 'Deployments and readers\' feedback in Slack, Discord or Teams.', available: true },
  custom_css: { label: 'Custom CSS', description: 'Your own styles on the site.', available: true },
  single_sign_on: { label: 'Single sign-on (SSO)', description: 'Sign in through your identity provider, with SCIM provisioning.', available: true },
  audit_log: { label: 'Audit log', description: 'Who changed what, and when.', available: true },
  white_labeling: { label: 'White labeling', description: 'No Folio branding on your site.', available: true },
  custom_roles: { label: 'Custom roles', description: 'Roles with exactly the permissions you choose.', available: true },
  self_updating_workflows: { label: 'Self-updating docs', description: 'Workflows that run the writing agent when your code is pushed, on a schedule or on demand, ending in a review branch or publishing directly.', available: true },
};

/** Plan names by id. */
export const PLAN_LABELS: Record<string, string> = { free: 'Free', pro: 'Pro', team: 'Team', enterprise: 'Enterprise' };

/** A quota: its name, and the noun for one and for many of what it counts. */
export interface QuotaLabel { label: string; one: string; many: string; available: boolean }

export const QUOTA_LABELS: Record<string, QuotaLabel> = {
  max_projects: { label: 'Projects', one: 'project', many: 'projects', available: true },
  max_dashboard_members: { label: 'Dashboard members', one: 'dashboard member', many: 'dashboard members', available: true },
  max_custom_domains: { label: 'Custom domains', one: 'custom domain', many: 'custom domains', available: true },
  assistant_messages_daily: { label: 'Assistant messages per day', one: 'assistant message a day', many: 'assistant messages a day', available: true },
  agent_credits_monthly: { label: 'Agent credits per month', one: 'agent credit a month', many: 'agent credits a month', available: true },
};

/** Turns an unknown identifier into words (`some_name` → `Some name`), for names added later. */
export function humanize(name: string): string {
  const words = name.replace(/^max_/, '').replace(/[_.]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The name of a boolean feature or a quota. */
export function featureLabel(name: string): string {
  return FEATURE_LABELS[name]?.label ?? QUOTA_LABELS[name]?.label ?? humanize(name);
}

/** "1 project", "5 dashboard members": a count of what a quota counts. */
export function quotaCount(name: string, n: number): string {
  const q = QUOTA_LABELS[name];
  if (!q) return `${n} ${humanize(name).toLowerCase()}`;
  return `${n} ${n === 1 ? q.one : q.many}`;
}

/** Analytics breakdown dimensions, as the "By" menu offers them. */
export const DIMENSION_LABELS: Record<string, string> = {
  pages: 'Pages', searches: 'Searches', referrers: 'Referrers', channels: 'Channels', countries: 'Countries',
  regions: 'Regions', cities: 'Cities', browsers: 'Browsers', os: 'Operating systems', devices: 'Devices',
  campaigns: 'Campaigns', keywords: 'Keywords',
};

/** Column names of analytics rows and totals. */
export const METRIC_LABELS: Record<string, string> = {
  path: 'Page', views: 'Views', unique_visitors: 'Unique visitors', visitors: 'Visitors', query: 'Search', count: 'Count',
  avg_result_count: 'Average results', country: 'Country', region: 'Region', city: 'City', name: 'Name',
  channel: 'Channel', referrer: 'Referrer', campaign: 'Campaign', keyword: 'Keyword', family: 'AI family', kind: 'Export',
  llm_exports: 'Text exports for AI', ai_referrals: 'Visits from AI chats', crawler_views: 'Pages read by AI crawlers',
  assistant_opens: 'Assistant opened', assistant_messages: 'Assistant messages',
};

/** The files of the text export for AI, by the `kind` the analytics API reports. */
export const EXPORT_KIND_LABELS: Record<string, string> = {
  llms_txt: 'llms.txt (page index)', llms_full_txt: 'llms-full.txt (every page)', markdown: 'Markdown pages',
};

/** What started a deployment. */
export const TRIGGER_LABELS: Record<string, string> = {
  push: 'git push', manual: 'manual (dashboard)', api: 'API', webhook: 'GitHub push', ci: 'CI',
};

/** Statuses of deployments, projects and domains. */
export const STATUS_LABELS: Record<string, string> = {
  queued: 'queued', building: 'building', deployed: 'deployed', failed: 'failed',
  pending: 'pending', active: 'active', verified: 'verified', unknown: 'unknown',
};

/** Built-in roles (custom roles carry their own names). */
export const ROLE_LABELS: Record<string, string> = {
  owner: 'Owner', admin: 'Admin', editor: 'Editor', member: 'Editor', viewer: 'Viewer',
};

/**
 * Request fields, as validation messages name them. A nested path (`scopes.0`) is named by its
 * first key.
 */
export const FIELD_LABELS: Record<string, string> = {
  hostname: 'Domain', token: 'This link', email: 'Email', password: 'Password', name: 'Name', slug: 'Slug',
  branch: 'Branch', role: 'Role', scopes: 'Scopes', expires_at: 'Expiry date', repo: 'Repository', repository: 'Repository',
  permissions: 'Permissions', description: 'Description', url: 'URL', events: 'Events', secret: 'Secret',
  issuer: 'Issuer', client_id: 'Client ID', client_secret: 'Client secret', metadata_url: 'Metadata URL',
  metadata_xml: 'Metadata XML', domain: 'Email domain', protocol: 'Protocol', require_sso: 'Require SSO',
  allow_idp_initiated: 'Sign-in started at the identity provider', confirm: 'Confirmation', id: 'ID',
  deploymentId: 'Deployment', dimension: 'Breakdown', from: 'Start', to: 'End', tz: 'Time zone', unit: 'Unit',
  github_repo: 'GitHub repository', github_branch: 'GitHub branch', installation_id: 'GitHub installation',
  code: 'GitHub sign-in', state: 'Install link', setup_action: 'GitHub setup',
  limit: 'Limit', cursor: 'Page', body: 'The request', path: 'The address', query: 'The address',
  login_url: 'Login URL', jwks_url: 'JWKS URL', verification_key: 'Verification key', groups_claim: 'Groups claim', token_issuer: 'Token issuer',
  base_url: 'Base URL', model: 'Model name', api_key: 'API key', features: 'Features',
};

/** The words for a request field (`expires_at` → "Expiry date"). */
export function fieldLabel(field: string): string {
  const key = field.split('.')[0];
  return FIELD_LABELS[key] ?? humanize(key);
}

/**
 * One sentence for a validation problem: the field's words, then the rule ("Password must be at
 * least 10 characters", "Email is required"); a rule that is a sentence of its own follows a colon.
 */
export function fieldMessage(field: string, rule: string): string {
  if (!field) return rule;
  const label = fieldLabel(field);
  const required = /^Required\b(.*)$/s.exec(rule);
  if (required) return `${label} is required${required[1]}`;
  if (rule === 'Unexpected key') return `${label} is not expected here`;
  // "URL resolves to a private address": the rule already names the field.
  if (rule.toLowerCase().startsWith(`${label.toLowerCase()} `)) return rule;
  if (/^[a-z]/.test(rule)) return `${label} ${rule}`;
  return `${label}: ${rule}`;
}
