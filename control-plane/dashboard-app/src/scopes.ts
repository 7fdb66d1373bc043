/** The API key scope table (spec section 5), as the key forms offer it. */
export const SCOPES: { scope: string; grants: string }[] = [
  { scope: 'projects:read', grants: 'list and get projects; clone and fetch managed repositories' },
  { scope: 'projects:write', grants: 'create, update, delete projects; manage the project logo; git push to managed repositories' },
  { scope: 'pages:read', grants: 'list and get pages' },
  { scope: 'pages:write', grants: 'reserved; page writes are dashboard/Git only, for future endpoints' },
  { scope: 'deployments:read', grants: 'list deployments' },
  { scope: 'deployments:trigger', grants: 'trigger manual deployments' },
  { scope: 'analytics:read', grants: 'analytics overview, breakdowns, AI and LLM insights' },
  { scope: 'scim', grants: 'SCIM 2.0 user and group provisioning under /scim/v2/*' },
];
