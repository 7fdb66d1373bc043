/**
 * How the builder's processes (each build process and its compile sandboxes) hand memory back.
 * Two sandboxes run beside the build process, so what each keeps but no longer uses counts
 * against a build's memory:
 * - glibc gives each thread that allocates its own arena (V8's compiler and GC threads, libuv's
 *   pool), and freed memory in one is not reused by the others: two arenas at most.
 * - Vite's parser and transforms (rolldown, a native addon) allocate with mimalloc, which keeps
 *   freed pages for a while before returning them; returned at once here (`PURGE_DELAY=0`).
 * Together they keep a sandbox's resident size down at no measurable CPU cost (builder
 * docs/benchmarks.md, "Allocators").
 *
 * Both allocators read these when they start (glibc with the process, mimalloc when Vite's addon
 * loads), so they are set in a child's environment when it is started; a sandbox removes them
 * from its environment before any page runs (sandbox/entry.ts).
 */
export const ALLOCATOR_ENV = { MALLOC_ARENA_MAX: '2', MIMALLOC_PURGE_DELAY: '0' } as const;

/**
 * glibc's tunable for a build process alone: memory it maps for large blocks (a 10,000-page
 * site's `llms-full.txt` is 55 MB, read back from the last publish and written again; the state's
 * JSON) is asked for in huge pages where the kernel gives them on request (transparent huge
 * pages in `madvise` mode, as on the machines measured). A 4 KB page costs a fault the first
 * time it is written, and on a virtual machine a fault is dear, so large blocks in huge pages
 * take far fewer faults and less CPU (builder docs/benchmarks.md, "Huge pages"). Not for sandboxes: their memory is V8's heap, which glibc does not allocate
 * (a cold build's faults and CPU were the same with it), and their resident size would only
 * grow. Ignored where the kernel has no transparent huge pages or gives them to every mapping.
 */
export const HUGE_PAGES_TUNABLE = 'glibc.malloc.hugetlb=1';

/** `env`'s `GLIBC_TUNABLES` with {@link HUGE_PAGES_TUNABLE} added (tunables already set are kept, and win). */
export function withHugePages(tunables: string | undefined): string {
  return tunables ? `${HUGE_PAGES_TUNABLE}:${tunables}` : HUGE_PAGES_TUNABLE;
}

/**
 * V8's young generation grows to 3 x 16 MB by default; 8 MB semi-spaces keep a process
 * smaller for little more CPU (builder docs/benchmarks.md, "Semi-space size").
 */
export const SEMI_SPACE_FLAG = '--max-semi-space-size=8';
