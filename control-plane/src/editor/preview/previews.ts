/**
 * The live previews of the web editor, one per project being edited: a preview process of the
 * builder (`startPreviewProcess`: the repository at the production branch's head with the
 * project's drafts laid over it, kept built by the builder's dev session, pages compiled in its
 * sandboxes) started on the first preview request. Customer code never runs in this process.
 *
 * Lifetime: a preview is closed after `idleMs` without a request (no process or sandbox stays up
 * without work); at most `max` run at once, the least recently used closed first when another
 * opens. `max` defaults to what a quarter of the machine's memory holds at `PREVIEW_BYTES` each.
 * The built pages stay in a folder per project under DATA_DIR (`editor-preview/<project>/`), so
 * a preview URL keeps showing the last build after its process is closed, and the next preview
 * of the project (the same commit, or the next one) compiles only what changed.
 */
import os from 'node:os';
import path from 'node:path';
import { startPreviewProcess, type DevEvent, type PreviewProcess, type PreviewUpdate } from '@folio/builder';
import type { Deps } from '../../http/route.ts';
import { repoPath } from '../../git/managed-repos.ts';
import { listDrafts, getDraft, onDraftChange, type DraftView } from '../drafts.ts';
import { headCommit } from '../repo-files.ts';

/** The path every preview is built under; served pages have it replaced by their token's path. */
export const PREVIEW_BASE = '/editor-preview/~';

/** Memory a preview takes (its process and its sandboxes) with a 1,000-page site: 594 MB measured (docs/benchmarks.md). */
export const PREVIEW_BYTES = 600 * 1024 * 1024;

export interface EditorPreviewOptions {
  /** A preview without requests this long is closed; default 10 minutes. */
  idleMs?: number;
  /** Previews running at once; default from the machine's memory (1 to 8). */
  max?: number;
  /** After an edit's page is shown, the whole-site build (navigation, search) waits this long for the next edit; default 1,500 ms. */
  fullBuildDelayMs?: number;
}

interface Entry {
  projectId: string;
  commit: string | null;
  proc: PreviewProcess;
  /** Settles when the first build is done. */
  ready: Promise<void>;
  lastUsed: number;
  /** Updates waiting for it: never closed for idleness meanwhile. */
  busy: number;
  idle?: NodeJS.Timeout;
  /** Paths this preview was just given by the editor: saved drafts older than that text are not laid over them. */
  recent: Map<string, number>;
}

const RECENT_MS = 10_000;

function defaultMax(): number {
  return Math.max(1, Math.min(8, Math.floor((os.totalmem() / 4) / PREVIEW_BYTES)));
}

const draftBytes = (d: DraftView): string | Uint8Array | null => (d.content === null ? null : d.kind === 'binary' ? Buffer.from(d.content, 'base64') : d.content);

/** The previews of one control plane. */
export class EditorPreviews {
  private readonly entries = new Map<string, Entry>();
  private readonly opening = new Map<string, Promise<Entry>>();
  private readonly listeners = new Map<string, Set<(event: DevEvent) => void>>();
  private readonly stopDrafts: () => void;
  private readonly deps: Deps;
  opts: Required<EditorPreviewOptions>;

  constructor(deps: Deps, opts: EditorPreviewOptions = {}) {
    this.deps = deps;
    this.opts = { idleMs: opts.idleMs ?? 600_000, max: opts.max ?? defaultMax(), fullBuildDelayMs: opts.fullBuildDelayMs ?? 1_500 };
    this.stopDrafts = onDraftChange((projectId, p) => void this.draftChanged(projectId, p));
  }

  /** Folder of a project's built preview. */
  storeDir(projectId: string): string {
    return path.join(this.deps.env.dataDir, 'editor-preview', projectId);
  }

  /** Projects with a running preview, most recently used last. */
  running(): string[] {
    return [...this.entries.values()].sort((a, b) => a.lastUsed - b.lastUsed).map((e) => e.projectId);
  }

  /** Resident memory of every running preview (processes and sandboxes), by project. */
  memory(): Record<string, number> {
    return Object.fromEntries([...this.entries.values()].map((e) => [e.projectId, e.proc.memoryBytes()]));
  }

  /** Lays `content` over `filePath` in the project's preview (started if needed) and settles when the page is built. */
  async update(projectId: string, filePath: string, content: string | null): Promise<PreviewUpdate> {
    const entry = await this.open(projectId);
    entry.recent.set(filePath, Date.now());
    entry.busy++;
    try {
      await entry.ready;
      return await entry.proc.update(filePath, content);
    } finally {
      entry.busy--;
      this.used(entry);
    }
  }

  /** Keeps the project's preview from closing for idleness (a page of it was served). */
  touch(projectId: string): void {
    const entry = this.entries.get(projectId);
    if (entry) this.used(entry);
  }

  /** Listens to the events of the project's preview (across restarts of its process). */
  subscribe(projectId: string, listener: (event: DevEvent) => void): () => void {
    let set = this.listeners.get(projectId);
    if (!set) this.listeners.set(projectId, set = new Set());
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0 && this.listeners.get(projectId) === set) this.listeners.delete(projectId);
    };
  }

  /** The current problems of the project's preview (none when it is not running). */
  problems(projectId: string) {
    return this.entries.get(projectId)?.proc.problems() ?? [];
  }

  async close(projectId: string): Promise<void> {
    const entry = this.entries.get(projectId);
    if (!entry) return;
    this.entries.delete(projectId);
    clearTimeout(entry.idle);
    await entry.proc.close();
  }

  async closeAll(): Promise<void> {
    this.stopDrafts();
    await Promise.all([...this.opening.values()].map((p) => p.catch(() => undefined)));
    await Promise.all([...this.entries.keys()].map((id) => this.close(id)));
  }

  private used(entry: Entry): void {
    entry.lastUsed = Date.now();
    clearTimeout(entry.idle);
    entry.idle = setTimeout(() => { if (entry.busy > 0) this.used(entry); else void this.close(entry.projectId); }, this.opts.idleMs);
    entry.idle.unref();
  }

  /** The project's running preview on its branch's current head, started (or restarted on a new head) if needed. */
  private async open(projectId: string): Promise<Entry> {
    const pending = this.opening.get(projectId);
    if (pending) return pending;
    const started = this.start(projectId);
    this.opening.set(projectId, started);
    try {
      return await started;
    } finally {
      this.opening.delete(projectId);
    }
  }

  private async start(projectId: string): Promise<Entry> {
    const head = await headCommit(this.deps, projectId);
    const existing = this.entries.get(projectId);
    if (existing && existing.commit === head) { this.used(existing); return existing; }
    if (existing) await this.close(projectId);
    // Room for one more: the least recently used go first, those with an update under way last.
    while (this.entries.size >= this.opts.max) {
      const order = this.running();
      await this.close(order.find((id) => this.entries.get(id)!.busy === 0) ?? order[0]!);
    }
    const drafts = (await listDrafts(this.deps, projectId)).map((d): [string, string | Uint8Array | null] => [d.path, draftBytes(d)]);
    const proc = startPreviewProcess({
      gitDir: repoPath(this.deps, projectId), commit: head, drafts, storeDir: this.storeDir(projectId),
      siteUrl: new URL(this.deps.env.publicApiUrl).origin, basePath: PREVIEW_BASE, fullBuildDelayMs: this.opts.fullBuildDelayMs,
    });
    const entry: Entry = { projectId, commit: head, proc, ready: proc.ready, lastUsed: Date.now(), busy: 0, recent: new Map() };
    proc.subscribe((event) => { for (const l of this.listeners.get(projectId) ?? []) l(event); });
    void proc.ended.then(() => {
      if (this.entries.get(projectId) === entry) { this.entries.delete(projectId); clearTimeout(entry.idle); }
    });
    this.entries.set(projectId, entry);
    this.used(entry);
    return entry;
  }

  /** Another member's saved draft (or a discarded one) reaches the open preview. */
  private async draftChanged(projectId: string, filePath: string): Promise<void> {
    const entry = this.entries.get(projectId);
    if (!entry) return;
    const given = entry.recent.get(filePath);
    // This preview's own editor sent newer text than a save that follows it.
    if (given !== undefined && Date.now() - given < RECENT_MS) return;
    const draft = await getDraft(this.deps, projectId, filePath).catch(() => undefined);
    entry.proc.setDrafts([[filePath, draft ? draftBytes(draft) : undefined]]);
  }
}

const byDeps = new WeakMap<Deps, EditorPreviews>();

/** The previews of the control plane whose deps these are (made on first use). */
export function editorPreviews(deps: Deps): EditorPreviews {
  let previews = byDeps.get(deps);
  if (!previews) byDeps.set(deps, previews = new EditorPreviews(deps));
  return previews;
}

/** Sets the previews' options (tests: a short idle time); running previews keep theirs until they restart. */
export function configureEditorPreviews(deps: Deps, opts: EditorPreviewOptions): EditorPreviews {
  const previews = editorPreviews(deps);
  previews.opts = { ...previews.opts, ...Object.fromEntries(Object.entries(opts).filter(([, v]) => v !== undefined)) };
  return previews;
}

/** Closes every preview of the control plane (on shutdown). */
export async function closeEditorPreviews(deps: Deps): Promise<void> {
  await byDeps.get(deps)?.closeAll();
  byDeps.delete(deps);
}
