/** Public surface of the control plane package. */
export { startControlPlane, bootstrap, type ControlPlane, type ControlPlaneOptions } from './server.ts';
export { dashboardOrigin, parseEnv, type Env } from './env.ts';
export { connectDatabase, type Database } from './db/connect.ts';
export { models, type Models } from './db/models/index.ts';
export { createApiKey } from './auth/api-keys.ts';
export { SCOPES } from './auth/scopes.ts';
export { createOrganization, changePlan, findOrganization, assertPlan } from './admin/organizations.ts';
export { listKeys, revokeKey } from './admin/api-keys.ts';
export { consumeQuota } from './entitlements/quota.ts';
export { AppError } from './errors.ts';
