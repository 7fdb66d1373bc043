/**
 * How a compile sandbox is started: which Node binary, which permissions, and which operating
 * system layers this machine allows.
 *
 * The binary is Node 26 from the `builder/sandbox-runtime` package (installed apart from the
 * workspaces, so its `node` bin never replaces the platform's own Node 20). From Node 25 on the
 * permission model also denies the network; Node 20's experimental one does not, which is why the
 * sandbox never runs on the platform's own binary unless it is that new.
 */
import { accessSync, constants, existsSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SEMI_SPACE_FLAG } from '../allocator-env.ts';
import { appError } from '../errors.ts';

/** The repository root of the platform: `builder/`, `site-template/`, `node_modules/` live here. */
export const PLATFORM_ROOT = fileURLToPath(new URL('../../../', import.meta.url)).replace(/\/$/, '');

/** Oldest Node whose permission model denies network access. */
const MIN_SANDBOX_NODE = 25;

function major(version: string): number {
  return Number(/^v?(\d+)/.exec(version)?.[1] ?? 0);
}

/** The Node binary pages are compiled with; throws `sandbox_unavailable` when none is installed. */
export function sandboxNode(): string {
  const arch = process.arch === 'arm64' ? 'arm64' : 'x64';
  const shipped = path.join(PLATFORM_ROOT, 'builder', 'sandbox-runtime', 'node_modules', `node-linux-${arch}`, 'bin', 'node');
  if (existsSync(shipped)) return shipped;
  if (major(process.version) >= MIN_SANDBOX_NODE) return process.execPath;
  throw appError('sandbox_unavailable', `No Node >= ${MIN_SANDBOX_NODE} to compile pages in a sandbox: run npm install (it installs builder/sandbox-runtime)`);
}

/**
 * What the sandbox may read: the platform's own code and dependencies, nothing else (no data
 * directory, no checkouts, no other site). Symlinked workspaces are listed by their real paths.
 */
export function platformReadPaths(): string[] {
  const paths = ['builder', 'site-template', 'node_modules', 'package.json'].map((p) => path.join(PLATFORM_ROOT, p));
  return [...new Set(paths.filter((p) => existsSync(p)).map((p) => realpathSync(p)))];
}

function onPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '/usr/bin:/bin').split(':')) {
    const file = path.join(dir, name);
    try {
      accessSync(file, constants.X_OK);
      return file;
    } catch { /* next */ }
  }
  return undefined;
}

/** Operating-system layers this process can add around a sandbox. */
export interface OsIsolation {
  /** `unshare`, when this process may create a network namespace (root). */
  unshare?: string;
  /** `setpriv`, when this process may switch to another user (root). */
  setpriv?: string;
}

let detected: OsIsolation | undefined;

/**
 * As root (a single machine, CI), the sandbox also runs in an empty network namespace and as an
 * unprivileged user of its own; elsewhere (a non-root container) the permission model alone.
 */
export function osIsolation(): OsIsolation {
  if (detected) return detected;
  const root = process.platform === 'linux' && process.getuid?.() === 0;
  detected = root ? { unshare: onPath('unshare'), setpriv: onPath('setpriv') } : {};
  return detected;
}

/** First of the user ids handed to sandboxes (random within a range of 2^16, no passwd entry). */
export const SANDBOX_UID_BASE = 200_000;

/** A fresh user id for one sandbox: sandboxes never share a user, so one cannot touch another. */
export function sandboxUid(): number {
  return SANDBOX_UID_BASE + Math.floor(Math.random() * 65_536);
}

/** CPU time one sandbox process may use in its life (it serves one project, ends when idle). */
export const SANDBOX_CPU_SECONDS = 30 * 60;

/** Options of {@link sandboxCommand}. */
export interface SandboxCommandOptions {
  /** The one folder the sandbox may write (also its TMPDIR and working directory). */
  scratch: string;
  /** The script the sandbox runs. */
  entry: string;
  /** V8 old-space limit in MB. */
  heapMb: number;
  /** Run as this user id (needs `setpriv`). */
  uid?: number;
  /** Run in a new, empty network namespace (needs `unshare`). */
  netns?: boolean;
  /** The sandbox's whole environment. */
  env?: Record<string, string>;
}

/**
 * The operating system's layers as a command prefix: a new network and IPC namespace
 * (`unshare`), then the sandbox's own user with no capabilities (`setpriv`), then `env -i` with
 * exactly `env`: nothing a parent injects into its children's environment (test runners add
 * Node options and variables of their own) reaches the sandbox.
 */
export function osWrapper(opts: { uid?: number; netns?: boolean; env?: Record<string, string> }): string[] {
  const os = osIsolation();
  const wrap: string[] = [];
  if (opts.netns && os.unshare) wrap.push(os.unshare, '--net', '--ipc', '--');
  if (opts.uid !== undefined && os.setpriv) {
    wrap.push(os.setpriv, `--reuid=${opts.uid}`, `--regid=${opts.uid}`, '--clear-groups', '--inh-caps=-all', '--bounding-set=-all', '--no-new-privs', '--');
  }
  // A hard CPU-time cap from the kernel: the sandbox's own watchdog lives in its build process,
  // and a sandbox stuck in a loop whose build process was killed would otherwise spin forever.
  const prlimit = onPath('prlimit');
  if (prlimit) wrap.push(prlimit, `--cpu=${SANDBOX_CPU_SECONDS}`, '--');
  const env = onPath('env');
  if (env) wrap.push(env, '-i', '--', ...Object.entries(opts.env ?? {}).map(([k, v]) => `${k}=${v}`));
  return wrap;
}

/** Node's own flags for a sandbox: the permission model and the heap's limits. */
export function sandboxNodeArgs(opts: Pick<SandboxCommandOptions, 'scratch' | 'heapMb'>): string[] {
  return [
    '--permission',
    // Vite 8 bundles with rolldown, a native addon; see docs/security.md for why this
    // is acceptable (addons load only from the read-only platform folders; dlopen is removed
    // before any page runs).
    '--allow-addons',
    ...platformReadPaths().map((p) => `--allow-fs-read=${p}`),
    `--allow-fs-read=${opts.scratch}`,
    `--allow-fs-write=${opts.scratch}`,
    `--max-old-space-size=${opts.heapMb}`,
    SEMI_SPACE_FLAG,
    '--disable-warning=SecurityWarning',
    '--disable-warning=ExperimentalWarning',
  ];
}

/** The command line of one sandbox: `[file, ...args]`. */
export function sandboxCommand(opts: SandboxCommandOptions): { file: string; args: string[] } {
  const [file, ...args] = [...osWrapper(opts), sandboxNode(), ...sandboxNodeArgs(opts), opts.entry];
  return { file, args };
}
