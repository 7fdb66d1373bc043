/**
 * The parent's side of a preview process (preview-process.ts): started like a build process
 * (`build-process-launch.ts`: the builder's entry, the allocators that hand memory back, a
 * scrubbed environment of its own, a temporary folder removed when it ends) in a process group
 * of its own, so closing it ends its sandboxes too. The control plane keeps one per project
 * being edited.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildProcessArgs, buildProcessEnv } from '../build-process-launch.ts';
import { scrubbedEnv } from '../limits/scrubbed-env.ts';
import type { DevEvent, DevProblem } from '../dev/dev-session.ts';
import type { DraftPreviewOptions, PreviewUpdate } from './draft-preview.ts';
import type { FromPreview, ToPreview } from './preview-process.ts';

const PREVIEW_PROCESS = fileURLToPath(new URL('./preview-process.ts', import.meta.url));
const CLIENT_JS = fs.readFileSync(new URL('../dev/dev-client.js', import.meta.url));

/** The dev client script pages of a preview load (from `<base path>/_folio/dev/client.js`). */
export function previewClientScript(): Buffer {
  return CLIENT_JS;
}

/** Options of {@link startPreviewProcess}. */
export type PreviewProcessOptions = Omit<DraftPreviewOptions, 'compiler' | 'log' | 'drafts'> & {
  drafts?: Array<[string, string | Uint8Array | null]>;
  /** Lines the preview prints (builds, problems). */
  log?(line: string): void;
};

/** A running preview process. */
export interface PreviewProcess {
  pid: number;
  /** Settles when the first build is done; rejects if the process ends before. */
  ready: Promise<void>;
  /** Lays a draft over the page and settles when its HTML is in the store (or its problems are known). */
  update(path: string, content: string | null): Promise<PreviewUpdate>;
  /** Lays drafts over other pages without waiting (`undefined`: the draft was dropped). */
  setDrafts(drafts: Array<[string, string | Uint8Array | null | undefined]>): void;
  /** Listens to the session's events (updates, reloads, problems); returns the removal. */
  subscribe(listener: (event: DevEvent) => void): () => void;
  /** The last problems the session reported. */
  problems(): DevProblem[];
  /** Resident memory of the process and its sandboxes, in bytes (Linux; 0 elsewhere). */
  memoryBytes(): number;
  /** Settles when the process has ended. */
  ended: Promise<void>;
  close(): Promise<void>;
}

/** Resident bytes of every process of the group `pgid` (from /proc). */
export function processGroupRss(pgid: number): number {
  let total = 0;
  let entries: string[];
  try { entries = fs.readdirSync('/proc'); } catch { return 0; }
  const page = 4096;
  for (const e of entries) {
    if (!/^\d+$/.test(e)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${e}/stat`, 'utf8');
      // Fields after the command's closing parenthesis: state ppid pgrp ...; rss is field 24 overall.
      const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(rest[2]) !== pgid) continue;
      total += Number(rest[21]) * page;
    } catch { /* ended meanwhile */ }
  }
  return total;
}

/** Starts a preview process and opens the preview in it (its first build runs at once). */
export function startPreviewProcess(opts: PreviewProcessOptions): PreviewProcess {
  // 0711: sandboxes, running as other users, reach their own scratch folder inside, and list nothing.
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-preview-'));
  fs.chmodSync(tmp, 0o711);
  const child = spawn(process.execPath, buildProcessArgs(PREVIEW_PROCESS), {
    env: buildProcessEnv({ ...scrubbedEnv(), TMPDIR: tmp }), stdio: ['ignore', 'ignore', 'pipe', 'ipc'], serialization: 'advanced', detached: true,
  });
  child.stderr!.setEncoding('utf8');
  let partial = '';
  child.stderr!.on('data', (chunk: string) => {
    const lines = (partial + chunk).split('\n');
    partial = lines.pop()!;
    for (const line of lines) opts.log?.(line);
  });
  const killGroup = () => { try { process.kill(-child.pid!, 'SIGKILL'); } catch { /* already gone */ } };
  let exited = false;
  const ended = new Promise<void>((resolve) => child.on('exit', () => {
    exited = true;
    killGroup();
    fs.rmSync(tmp, { recursive: true, force: true });
    for (const [, w] of waiting) w.reject(new Error('The preview process ended'));
    waiting.clear();
    resolve();
  }));
  const listeners = new Set<(event: DevEvent) => void>();
  let problems: DevProblem[] = [];
  let next = 0;
  const waiting = new Map<number, { resolve(r: PreviewUpdate): void; reject(e: Error): void }>();
  let markReady!: () => void;
  let failReady!: (e: Error) => void;
  const ready = new Promise<void>((resolve, reject) => { markReady = resolve; failReady = reject; });
  ready.catch(() => undefined);
  void ended.then(() => failReady(new Error('The preview process ended before its first build')));
  const send = (msg: ToPreview) => { if (child.connected) child.send(msg); };
  child.on('message', (msg: FromPreview) => {
    if (msg.type === 'ready') markReady();
    else if (msg.type === 'event') {
      if (msg.event.type === 'problems') problems = msg.event.problems;
      for (const l of listeners) l(msg.event);
    } else if (msg.type === 'result' || msg.type === 'failed') {
      const w = waiting.get(msg.id);
      waiting.delete(msg.id);
      if (msg.type === 'result') w?.resolve(msg.result);
      else w?.reject(new Error(msg.message));
    } else if (msg.type === 'error') {
      opts.log?.(`error: ${msg.message}`);
      failReady(new Error(msg.message));
    }
  });
  const { log: _log, ...options } = opts;
  send({ type: 'open', options });
  return {
    pid: child.pid!,
    ready,
    update(p, content) {
      if (exited) return Promise.reject(new Error('The preview process ended'));
      const id = next++;
      return new Promise<PreviewUpdate>((resolve, reject) => {
        waiting.set(id, { resolve, reject });
        send({ type: 'update', id, path: p, content });
      });
    },
    setDrafts(drafts) { send({ type: 'drafts', drafts }); },
    subscribe(listener) { listeners.add(listener); return () => listeners.delete(listener); },
    problems: () => problems,
    memoryBytes: () => (exited ? 0 : processGroupRss(child.pid!)),
    ended,
    async close() {
      if (exited) return;
      send({ type: 'close' });
      const timer = setTimeout(killGroup, 5_000);
      await ended;
      clearTimeout(timer);
    },
  };
}
