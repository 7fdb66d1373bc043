/** Where a project's objects live in the bucket: the one definition every reader and writer uses. */

/** The public prefix of a project's site: what the site server and a CDN serve. */
export const sitePrefix = (projectId: string) => `sites/${projectId}/`;
/** The private prefix of a project's builder state (manifest, page summaries, page cache), which nothing serves. */
export const statePrefix = (projectId: string) => `state/${projectId}/`;
/** The public prefix of a branch preview's site (`{slug}--{label}` hosts); labels never contain `/`. */
export const previewSitePrefix = (projectId: string, label: string) => `previews/${projectId}/${label}/`;
/** The private prefix of a branch preview's own builder state. */
export const previewStatePrefix = (projectId: string, label: string) => `preview-state/${projectId}/${label}/`;
/**
 * Where the control plane preserves the objects a deployment's attempt replaced or deleted, until
 * the attempt ends (deploy/publish-rollback.ts). Outside every site and state prefix: the site
 * server reads only a site's prefix, a CDN must map only `sites/` and `previews/`, and a build's
 * object routes confine its keys to its own prefixes, so nothing serves or lists these.
 */
export const ROLLBACK_ROOT = 'rollback/';
/** The rollback prefix of one deployment. */
export const rollbackPrefix = (deploymentId: string) => `${ROLLBACK_ROOT}${deploymentId}/`;
/** Every prefix a project's objects may live under (what deleting the project removes). */
export const projectPrefixes = (projectId: string) => [sitePrefix(projectId), statePrefix(projectId), `previews/${projectId}/`, `preview-state/${projectId}/`];

/** The prefixes one build writes to, and the state it may read but never write. */
export interface BuildPrefixes {
  /** Public files of the site it publishes. */
  site: string;
  /** Its own builder state. */
  state: string;
  /**
   * A preview's fallback for the content-addressed parts of its state (page cache entries, page
   * summaries): production's state, read-only, so a preview of a one-page change compiles one
   * page without ever changing what production serves.
   */
  sharedState?: string;
}

/** The prefixes of a deployment's build: production's, or its preview's with production's state shared read-only. */
export function buildPrefixesOf(d: { project_id: string; preview_label?: string | null }): BuildPrefixes {
  if (!d.preview_label) return { site: sitePrefix(d.project_id), state: statePrefix(d.project_id) };
  return { site: previewSitePrefix(d.project_id, d.preview_label), state: previewStatePrefix(d.project_id, d.preview_label), sharedState: statePrefix(d.project_id) };
}
