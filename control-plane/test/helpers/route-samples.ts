/**
 * A valid request for every API route, so matrix tests (scopes, cross-organization access) can
 * call each route with everything right except the one thing under test.
 */
import type { RouteDef } from '../../src/http/route.ts';

/** Valid JSON bodies by operationId, for routes that take one. */
export const SAMPLE_BODIES: Record<string, unknown> = {
  createProject: { name: 'Sample', slug: 'sample-unused' },
  updateProject: { name: 'Renamed' },
  searchPages: { query: 'install' },
  uploadLogo: { light: 'https://example.com/logo.svg' },
  createChatChannel: { app: 'slack', url: 'https://hooks.slack.com/services/T0/B0/sample' },
};

/** Required query parameters by operationId. */
export const SAMPLE_QUERIES: Record<string, string> = {
  getAnalyticsBreakdown: '?dimension=pages',
};

/** The concrete path of `route` for a project id (other ids get a random uuid), with its required query. */
export function samplePath(route: RouteDef, projectId: string): string {
  return route.path
    .replace(':id', projectId)
    .replace(/:([A-Za-z]+)/g, '00000000-0000-4000-8000-000000000000') + (SAMPLE_QUERIES[route.operationId] ?? '');
}
