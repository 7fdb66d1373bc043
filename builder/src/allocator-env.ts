/**
 * How the builder's processes (each build process and its compile sandboxes) hand memory back.
 * Two sandboxes run beside the build process, so what each keeps but no longer uses counts
 * against a build's memory:
 * - glibc gives each thread that allocates its own arena (V8's compiler and GC threads, libuv's
 *   pool), and freed memory in one is not reused by the others: two arenas at most.
 * - Vite's parser and transforms (rolldown, a native addon) allocate with mimalloc, which keeps
 *   freed pages for a while before returning them; returned at once here (`PURGE_DELAY=0`).
 * Together ~20 MB less resident per sandbox, at no measurable CPU cost (builder README, "Memory").
 *
 * Both allocators read these when they start (glibc with the process, mimalloc when Vite's addon
 * loads), so they are set in a child's environment when it is started; a sandbox removes them
 * from its environment before any page runs (sandbox/entry.ts).
 */
export const ALLOCATOR_ENV = { MALLOC_ARENA_MAX: '2', MIMALLOC_PURGE_DELAY: '0' } as const;

/**
 * V8's young generation grows to 3 x 16 MB by default; at 8 MB semi-spaces a process stays
 * ~45 MB smaller for ~1% more CPU (at 4 MB, ~55 MB for ~5%: builder README, "Memory").
 */
export const SEMI_SPACE_FLAG = '--max-semi-space-size=8';
