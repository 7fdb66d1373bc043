/**
 * Part of the per-page cache key: bump whenever compiled output changes for the same source.
 * A module of its own, so that checking a cache (the preview's, before its first build) does not
 * load the compiler's sandbox pool and the site template with it.
 */
export const COMPILER_VERSION = 'compile-14';
