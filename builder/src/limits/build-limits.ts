import { userError } from '../errors.ts';

/**
 * Limits a build enforces, each a user error naming the measured value and the limit.
 * Every field can be set per build; the defaults suit a large docs site.
 */
export interface BuildLimits {
  /** Bytes the repository may take (Git objects, or files of a plain folder). Default 500 MB. */
  maxRepoBytes: number;
  /** Files the docs root (the folder of `docs.json`, what the site publishes) may hold. Default 20,000. */
  maxFiles: number;
  /**
   * Files the whole repository may hold, docs root included: a monorepo keeps its docs in a
   * folder beside the rest of its code, which the build lists but never reads. Default 200,000.
   */
  maxRepoFiles: number;
  /** Bytes the published site may take. Default 1 GB. */
  maxOutputBytes: number;
  /** Wall-clock time a build may take, in milliseconds. Default 10 minutes. */
  maxBuildMs: number;
  /** CPU time the build's page sandboxes may use together, in milliseconds. Default 15 minutes. */
  maxCpuMs: number;
}

/** The limits used when a build sets none. */
export const DEFAULT_LIMITS: BuildLimits = {
  maxRepoBytes: 500 * 1024 * 1024,
  maxFiles: 20_000,
  maxRepoFiles: 200_000,
  maxOutputBytes: 1024 * 1024 * 1024,
  maxBuildMs: 10 * 60 * 1000,
  maxCpuMs: 15 * 60 * 1000,
};

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
export function startDeadline(limits: BuildLimits, now = () => Date.now()): { check(): void } {
  const end = now() + limits.maxBuildMs;
  return {
    check() {
      if (now() > end) throw userError('build_timeout', `build ran longer than ${Math.round(limits.maxBuildMs / 1000)} s; the limit is ${Math.round(limits.maxBuildMs / 1000)} s`);
    },
  };
}

/** Throws `build_cpu_limit` when the build's sandboxes used more CPU time than allowed. */
export function checkCpu(cpuMs: number, limits: BuildLimits): void {
  if (cpuMs > limits.maxCpuMs) {
    throw userError('build_cpu_limit', `compiling pages used ${Math.round(cpuMs / 1000)} s of CPU time; the limit is ${Math.round(limits.maxCpuMs / 1000)} s`);
  }
}
