/**
 * The worker's import path of `PageMemory` (state/page-bodies.ts holds it): kept while
 * `worker/` imports it from here, since that folder's protocol is being reworked apart.
 */
export { PageMemory } from './state/page-bodies.ts';
