/**
 * Saves one file's text to its draft as the writer types: a debounced `PUT /file` carrying the
 * draft revision the text was typed on. Every change is first kept in localStorage and removed
 * only when the server confirms that very text. A network failure marks the file offline and
 * retries (1 s doubling to 30 s, and at once when the browser is back online); a 409
 * `draft_conflict` (someone else saved in between) hands the other person's text to the page.
 */
import { ApiError } from '../api.ts';
import type { EditorApi, FileBody } from './api.ts';
import { clearLocal, writeLocal } from './local-copy.ts';

export type SaveState = 'saved' | 'unsaved' | 'saving' | 'offline' | 'error';

export interface AutosaveEvents {
  onState(state: SaveState, error?: ApiError): void;
  /** Someone else saved the file since our revision: their file as the server has it, and our text. */
  onConflict(theirs: FileBody, mine: string): void;
}

export const SAVE_DELAY_MS = 600;

export class Autosave {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private retry = 1000;
  private inFlight: Promise<void> | undefined;
  private pending: string | undefined;
  private stopped = false;
  state: SaveState = 'saved';

  private readonly api: EditorApi;
  readonly path: string;
  /** The draft revision the current text is based on (undefined: no draft yet). */
  revision: number | undefined;
  /** The text the server holds now. */
  serverText: string;
  private readonly events: AutosaveEvents;

  constructor(api: EditorApi, path: string, revision: number | undefined, serverText: string, events: AutosaveEvents) {
    this.api = api;
    this.path = path;
    this.revision = revision;
    this.serverText = serverText;
    this.events = events;
    window.addEventListener('online', this.onOnline);
  }

  private onOnline = () => {
    if (this.pending !== undefined) this.schedule(0);
  };

  private setState(state: SaveState, error?: ApiError) {
    this.state = state;
    this.events.onState(state, error);
  }

  /** The writer changed the text: keep it locally at once, save it soon. */
  changed(text: string): void {
    if (this.stopped) return;
    if (text === this.serverText && this.pending === undefined && !this.inFlight) {
      clearLocal(this.api.projectId, this.path);
      this.setState('saved');
      return;
    }
    this.pending = text;
    writeLocal(this.api.projectId, this.path, { content: text, revision: this.revision, at: Date.now() });
    if (this.state !== 'offline') this.setState('unsaved');
    this.schedule(SAVE_DELAY_MS);
  }

  /** Saves at once (Ctrl/Cmd-S), waiting for the answer. */
  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.inFlight) await this.inFlight;
    if (this.pending !== undefined) await this.run();
  }

  private schedule(ms: number) {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.run();
    }, ms);
  }

  private async run(): Promise<void> {
    if (this.inFlight) {
      await this.inFlight;
      if (this.pending !== undefined && !this.timer) return this.run();
      return;
    }
    const text = this.pending;
    if (text === undefined || this.stopped) return;
    this.pending = undefined;
    this.setState('saving');
    this.inFlight = (async () => {
      try {
        // Revision 0: only if nobody made a draft of the file meanwhile.
        const saved = await this.api.save(this.path, text, this.revision ?? 0);
        this.revision = saved.revision;
        this.serverText = text;
        this.retry = 1000;
        if (this.pending === undefined) {
          clearLocal(this.api.projectId, this.path);
          this.setState('saved');
        } else {
          // More was typed meanwhile: it is based on the revision just made.
          writeLocal(this.api.projectId, this.path, { content: this.pending, revision: this.revision, at: Date.now() });
          this.setState('unsaved');
        }
      } catch (err) {
        const e = err instanceof ApiError ? err : new ApiError(0, 'client_error', String(err));
        if (e.status === 409 && e.code === 'draft_conflict') {
          this.pending = undefined;
          try {
            const theirs = await this.api.file(this.path);
            this.revision = theirs.draft?.revision;
            this.serverText = theirs.content ?? '';
            this.setState('saved');
            this.events.onConflict(theirs, text);
          } catch (err2) {
            this.pending = this.pending ?? text;
            this.setState('offline', err2 instanceof ApiError ? err2 : undefined);
            this.schedule(this.retry);
          }
        } else if (e.status === 0 || e.status >= 500 || e.status === 429) {
          // Not reached or not answered: keep the text and try again.
          if (this.pending === undefined) this.pending = text;
          this.setState('offline', e);
          this.schedule(this.retry);
          this.retry = Math.min(this.retry * 2, 30_000);
        } else {
          // Refused (too large, a path rule, no permission): the text stays here and in the browser.
          if (this.pending === undefined) this.pending = text;
          this.setState('error', e);
        }
      }
    })();
    try {
      await this.inFlight;
    } finally {
      this.inFlight = undefined;
    }
    if (this.pending !== undefined && !this.timer && this.state === 'unsaved') this.schedule(SAVE_DELAY_MS);
  }

  /** Whether text typed here has not reached the server yet. */
  get dirty(): boolean {
    return this.pending !== undefined || this.inFlight !== undefined;
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    window.removeEventListener('online', this.onOnline);
  }
}
