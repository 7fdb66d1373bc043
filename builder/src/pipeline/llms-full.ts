/**
 * `llms-full.txt`: every page's Markdown in one file (55 MB at 10,000 pages), made from three
 * sources fed by the steps in turn:
 *
 * - `start` (compile step, an edit only): while the sandbox compiles, the memory the new file
 *   will be written into is made ready (outputs/published-memory.ts);
 * - `add` (compile step): each compiled page's Markdown, kept on disk until the exports;
 * - `finish` (exports step): the Markdown of every page, from what was added, else sliced from the
 *   file the last build published (outputs/llms-full-recall.ts), else loaded;
 * - then `hash` while the files are emitted, `index` for the manifest, and `published` once the
 *   uploads are done, so a long-lived builder keeps the files for the next build to slice.
 */
import type { LlmsSegment } from '../outputs/llms-txt.ts';
import { contentKey, llmsFullIndex, recallMarkdown } from '../outputs/llms-full-recall.ts';
import { PublishedMemory } from '../outputs/published-memory.ts';
import type { PublishStats } from '../publish.ts';
import type { BuildManifest, LlmsFullIndex } from '../state/manifest.ts';
import type { PageRecord } from '../state/page-bodies.ts';
import type { CompiledPage } from '../types.ts';
import type { BuildContext } from './context.ts';

/** See the module comment. */
export class LlmsFullText {
  private readonly ctx: BuildContext;
  private readonly previous: BuildManifest | undefined;
  /**
   * A build without a long-lived builder's memory gets one of its own: the `llms-full.txt` it
   * reads back is hashed to be checked, and the new one's hash resumes from that.
   */
  readonly memory: PublishedMemory;
  /** Object key of each `llms-full.txt` → where each page's Markdown lies in it (filled by `siteWideExports`). */
  readonly segments = new Map<string, LlmsSegment[]>();
  private reserving: Promise<void> | undefined;

  constructor(ctx: BuildContext, previous: BuildManifest | undefined) {
    this.ctx = ctx;
    this.previous = previous;
    this.memory = ctx.opts.pageMemory?.files ?? new PublishedMemory();
  }

  /** Makes ready the memory the files will be written into (a kept builder has it already). */
  start(): void {
    const previous = this.previous;
    if (!previous?.llmsBytes) return;
    const sizes = Object.keys(previous.llmsBytes).map((key) => (Object.hasOwn(previous.objects, key) ? previous.objects[key].size : 0));
    this.reserving = this.memory.reserve(sizes).catch(() => undefined);
  }

  /**
   * A compiled page's Markdown, kept for the file (a page memory smaller than the site would
   * otherwise read it back), on disk: held in memory, every page's Markdown would add to the
   * compile step's peak.
   */
  add(record: PageRecord, page: CompiledPage): void {
    this.ctx.spools.markdown.add(contentKey(record), page.markdown.trim());
  }

  /** Content key → Markdown of every page of `records` (see `recallMarkdown`). */
  async finish(records: readonly PageRecord[], load: (record: PageRecord) => Promise<CompiledPage>): Promise<Map<string, string | Uint8Array>> {
    await this.reserving;
    const { spools, store } = this.ctx;
    return recallMarkdown({
      records, known: spools.markdown.count ? spools.markdown.readAll() : undefined, index: this.previous?.llmsBytes,
      objects: this.previous?.objects ?? {}, store, load, memory: this.memory,
    });
  }

  /** The sha256 of the site-wide file at `key` when it is an `llms-full.txt`, hashed from where it differs from the one remembered. */
  hash(key: string, text: string | Buffer): string | undefined {
    return this.segments.has(key) ? this.memory.sha256(key, text as Buffer) : undefined;
  }

  /** Where each page's Markdown lies in this build's files, for the manifest. */
  index(byUrl: ReadonlyMap<string, PageRecord>): LlmsFullIndex {
    return llmsFullIndex(this.segments, byUrl);
  }

  /** Uploaded: a long-lived builder keeps this build's files (of `siteWide`) for the next to slice. */
  published(stats: PublishStats, siteWide: ReadonlyMap<string, string | Buffer>): void {
    this.memory.remember(new Map([...this.segments.keys()].map((key) => [stats.objects[key].hash, siteWide.get(key) as Buffer])));
  }
}
