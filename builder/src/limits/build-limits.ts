import { userError } from '../errors.ts';

/**
 * Limits a build enforces, each a user error naming the measured value and the limit.
 * Every field can be set per build; the defaults suit a large docs site.
 */
export interface BuildLimits {
  /** Bytes the repository may take (Git objects, or files of a plain folder). Default 500 MB. */
  maxRepoBytes: number;
  /**
   * Files the docs root (the folder of `docs.json`, what the site publishes) may hold. Default
   * 50,000: a repository that keeps every release's pages (crewAI: 33 versions in 3 languages,
   * 25,030 files, 22,934 pages in its navigation) is a real site; what it costs is bounded by
   * the time limits below, which grow with the pages the build reads.
   */
  maxFiles: number;
  /**
   * Files the whole repository may hold, docs root included: a monorepo keeps its docs in a
   * folder beside the rest of its code, which the build lists but never reads. Default 200,000.
   */
  maxRepoFiles: number;
  /** Bytes the published site may take, plus `outputBytesPerPage` for each of its pages. Default 1 GB. */
  maxOutputBytes: number;
  /**
   * Bytes the published site may take for each of its pages, on top of `maxOutputBytes` (its
   * shell, Markdown export, feed and search entry; crewAI's average 150 KB). Default 256 KB.
   */
  outputBytesPerPage: number;
  /** Wall-clock time a build may take, in milliseconds, plus `buildMsPerPage` for each of the site's pages. Default 10 minutes. */
  maxBuildMs: number;
  /**
   * Wall-clock time a build may take for each page of the site, on top of `maxBuildMs`, once the
   * pages are listed (each has a shell, an export and a search entry even when its copy in
   * another version compiled it). Default 120 ms: 10 + 50 minutes at 25,000 pages (crewAI's cold build
   * took 34.6 minutes at load 31 on 2 cores).
   */
  buildMsPerPage: number;
  /** CPU time the build's page sandboxes may use together, in milliseconds, plus `cpuMsPerPage` for each page compiled. Default 15 minutes. */
  maxCpuMs: number;
  /** Sandbox CPU time a build may use for each page it compiles, on top of `maxCpuMs`. Default 200 ms. */
  cpuMsPerPage: number;
}

/** The limits used when a build sets none. */
export const DEFAULT_LIMITS: BuildLimits = {
  maxRepoBytes: 500 * 1024 * 1024,
  maxFiles: 50_000,
  maxRepoFiles: 200_000,
  maxOutputBytes: 1024 * 1024 * 1024,
  outputBytesPerPage: 256 * 1024,
  maxBuildMs: 10 * 60 * 1000,
  buildMsPerPage: 120,
  maxCpuMs: 15 * 60 * 1000,
  cpuMsPerPage: 200,
};

/** The longest a build under `limits` may run: `maxBuildMs` and the time of a site with `maxFiles` pages (a worker's backstop timer). */
export function longestBuildMs(limits: BuildLimits): number {
  return limits.maxBuildMs + limits.buildMsPerPage * limits.maxFiles;
}

const MB = 1024 * 1024;

/** `612 MB`, or `0.4 MB` below one megabyte, so small limits in tests still read well. */
export function formatMegabytes(bytes: number): string {
  return bytes >= MB ? `${Math.round(bytes / MB)} MB` : `${(bytes / MB).toFixed(1)} MB`;
}

const count = (n: number) => n.toLocaleString('en-US');

/**
 * Throws `repo_too_large` or `too_many_files` when the whole repository exceeds its bounds
 * (bytes, `maxRepoFiles`), checked as soon as it is listed, before its docs root is looked for.
 */
export function checkRepository(sizeBytes: number, fileCount: number, limits: BuildLimits): void {
  if (sizeBytes > limits.maxRepoBytes) {
    throw userError('repo_too_large', `repository is ${formatMegabytes(sizeBytes)}; the limit is ${formatMegabytes(limits.maxRepoBytes)}`);
  }
  if (fileCount > limits.maxRepoFiles) {
    throw userError('too_many_files', `repository has ${count(fileCount)} files; the limit is ${count(limits.maxRepoFiles)}`);
  }
}

/** Throws `too_many_files` when the docs root (`root`, `''` for the repository root) holds more than `maxFiles` files. */
export function checkDocsRoot(root: string, fileCount: number, limits: BuildLimits): void {
  if (fileCount > limits.maxFiles) {
    const where = root === '' ? 'repository' : `docs folder ${root}`;
    throw userError('too_many_files', `${where} has ${count(fileCount)} files; the limit is ${count(limits.maxFiles)}`);
  }
}

/** The limits of a site of `pages` pages: `maxOutputBytes` grows by `outputBytesPerPage` for each. */
export function limitsForPages(limits: BuildLimits, pages: number): BuildLimits {
  return { ...limits, maxOutputBytes: limits.maxOutputBytes + Math.max(0, pages) * limits.outputBytesPerPage };
}

/** Throws `output_too_large` when the site's objects exceed the limit. */
export function checkOutput(totalBytes: number, limits: BuildLimits): void {
  if (totalBytes > limits.maxOutputBytes) {
    throw userError('output_too_large', `site output is ${formatMegabytes(totalBytes)}; the limit is ${formatMegabytes(limits.maxOutputBytes)}`);
  }
}

/**
 * A deadline for one build: `check()` throws `build_timeout` once `maxBuildMs` has passed.
 * Steps call it between units of work, so a build stops at a clean point and publishes nothing.
 */
export interface Deadline {
  check(): void;
  /** Grants the time of a site of `pages` pages (`buildMsPerPage` each), once they are listed. */
  allowPages(pages: number): void;
}

/**
 * A deadline for one build: `check()` throws `build_timeout` once `maxBuildMs` (and the time
 * granted per page) has passed. Steps call it between units of work, so a build stops at a clean
 * point and publishes nothing.
 */
export function startDeadline(limits: BuildLimits, now = () => Date.now()): Deadline {
  const start = now();
  let allowed = limits.maxBuildMs;
  return {
    check() {
      const ran = now() - start;
      if (ran > allowed) throw userError('build_timeout', `build ran longer than ${Math.round(allowed / 1000)} s; the limit is ${Math.round(allowed / 1000)} s`);
    },
    allowPages(pages) {
      allowed = limits.maxBuildMs + Math.max(0, pages) * limits.buildMsPerPage;
    },
  };
}

/** Throws `build_cpu_limit` when the build's sandboxes used more CPU time than allowed for compiling `pages` pages. */
export function checkCpu(cpuMs: number, limits: BuildLimits, pages = 0): void {
  const allowed = limits.maxCpuMs + pages * limits.cpuMsPerPage;
  if (cpuMs > allowed) {
    throw userError('build_cpu_limit', `compiling pages used ${Math.round(cpuMs / 1000)} s of CPU time; the limit is ${Math.round(allowed / 1000)} s`);
  }
}
