/**
 * The editor's preview of a project: its repository at a commit with the drafts laid over it
 * (draft-tree.ts), kept built by a dev session (../dev/dev-session.ts) into a folder of its own,
 * exactly as `npm run dev` keeps a working tree built: the same plan, sandboxed compile, shells,
 * navigation and search. `update` lays one draft over the tree and settles when that page's new
 * HTML is in the store (the session's fast path) or its problems are known.
 */
import { createLocalDirStore } from '../store/local-dir-store.ts';
import type { ObjectStore } from '../store/object-store.ts';
import type { Compiler } from '../compile/compiler.ts';
import { openGitSnapshot, type RepoSnapshot } from '../git/repo-snapshot.ts';
import { appError } from '../errors.ts';
import { htmlKey } from '../outputs/site-paths.ts';
import { CONFIG_FILE } from '../config/parse-config.ts';
import { createDevSession, type DevEvent, type DevProblem, type DevSession } from '../dev/dev-session.ts';
import { startDevCompiler } from '../dev/dev-compiler.ts';
import { openDraftTree, type DraftTree } from './draft-tree.ts';

/** Options of {@link openDraftPreview}. */
export interface DraftPreviewOptions {
  /** The Git repository (a bare one, or a working copy's `.git`) holding `commit`. */
  gitDir: string;
  /** The commit drafts are laid over; null: an empty repository (drafts only). */
  commit: string | null;
  /** Drafts at start: repository path → text (or bytes), `null` for a deleted file. */
  drafts?: Array<[string, string | Uint8Array | null]>;
  /** Folder of the built preview and its page cache, kept between previews of the project. */
  storeDir: string;
  /** Origin the preview is served at (canonical links, feeds). */
  siteUrl: string;
  /** Path the preview is served under (every link of the site starts with it). */
  basePath?: string;
  /** See `DevSessionOptions.fullBuildDelayMs`; default 1,500 ms. */
  fullBuildDelayMs?: number;
  /** Default: one started for the preview (sandboxes), closed with it. */
  compiler?: Compiler;
  log?(line: string): void;
}

/** What an update of one page gives back. */
export interface PreviewUpdate {
  /** URL path of the page, base path excluded (`/guide/intro`); absent when the file is no page. */
  urlPath?: string;
  /** Object key of the page's HTML in the store. */
  key?: string;
  /** The page's problems (and the site's, such as docs.json's), with line and column when known. */
  problems: DevProblem[];
}

/** A running preview. */
export interface DraftPreview {
  session: DevSession;
  store: ObjectStore;
  tree: DraftTree;
  /** Settles once the first build is done (pages exist in the store). */
  ready: Promise<void>;
  /** Lays `content` over `path` and settles when that page is built (or failed). */
  update(path: string, content: string | Uint8Array | null): Promise<PreviewUpdate>;
  /** Lays drafts over the tree without waiting (others' edits, discarded drafts: `undefined` is the commit's file again). */
  setDrafts(drafts: Array<[string, string | Uint8Array | null | undefined]>): void;
  close(): Promise<void>;
}

const bytesOf = (content: string | Uint8Array | null) => (typeof content === 'string' ? Buffer.from(content, 'utf8') : content);

const EMPTY: RepoSnapshot = {
  files: new Map(),
  sizeBytes: 0,
  read: async (repoPath) => { throw appError('file_missing', `No file "${repoPath}" in the repository`); },
};

/** Opens the preview and starts its first build (in the background: `ready`). */
export async function openDraftPreview(opts: DraftPreviewOptions): Promise<DraftPreview> {
  const store = createLocalDirStore(opts.storeDir);
  const compiler = opts.compiler ?? await startDevCompiler(store);
  const base = opts.commit ? await openGitSnapshot(opts.gitDir, opts.commit, opts.gitDir) : EMPTY;
  const tree = openDraftTree(base, (opts.drafts ?? []).map(([p, c]) => [p, bytesOf(c)]));
  const session = createDevSession({
    tree, store, siteUrl: opts.siteUrl, basePath: opts.basePath, compiler, log: opts.log,
    fullBuildDelayMs: opts.fullBuildDelayMs ?? 1_500,
  });
  const pageProblems = (path: string) => session.problems().filter((p) => p.file === undefined || p.file === path || p.file === CONFIG_FILE);
  return {
    session,
    store,
    tree,
    ready: session.ready,
    async update(path, content) {
      tree.set(path, bytesOf(content));
      await session.edited([path]);
      const urlPath = session.pageUrl(path);
      return { ...(urlPath === undefined ? {} : { urlPath, key: htmlKey(urlPath) }), problems: pageProblems(path) };
    },
    setDrafts(drafts) {
      const paths: string[] = [];
      for (const [p, c] of drafts) {
        if (c === undefined) tree.unset(p);
        else tree.set(p, bytesOf(c));
        paths.push(p);
      }
      session.changed(paths);
    },
    async close() {
      await session.close();
      if (!opts.compiler) await compiler.close();
    },
  };
}

export type { DevEvent, DevProblem };
