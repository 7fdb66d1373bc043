/** Where a project's objects live in the bucket. */

/** The public prefix of a project's site: what the site server and a CDN serve. */
export const sitePrefix = (projectId: string) => `sites/${projectId}/`;
/** The private prefix of a project's builder state (manifest, page summaries, page cache), which nothing serves. */
export const statePrefix = (projectId: string) => `state/${projectId}/`;
