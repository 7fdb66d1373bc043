import { createHash, type Hash } from 'node:crypto';

/**
 * The large files a long-lived builder (one project's build process, the dev server) published
 * last, `llms-full.txt` above all (55 MB at 10,000 pages), kept by the sha256 the manifest
 * records for them, and the buffers of the files before them kept for reuse.
 *
 * Why: an edit rebuilds `llms-full.txt` from the published one, sliced (outputs/llms-full-recall.ts).
 * Without this, every edit downloaded the file, hashed it to check it, and wrote the new one into
 * a fresh allocation, whose page faults alone cost more than the copy (builder
 * docs/benchmarks.md, "Published files kept in memory"). With it, the next build slices the
 * file it remembers and writes the new one into the buffer of the file before (double buffering).
 *
 * One build at a time per memory (the build process runs its jobs in turn): a buffer handed out by
 * `scratch` leaves the pool, and returns only when `remember` replaces the file it became, once
 * its upload has finished.
 */
export class PublishedMemory {
  /** sha256 → bytes of the files the last build published. */
  private current = new Map<string, Uint8Array>();
  /** Backing buffers of files published before: reused by `scratch`. */
  private spares: ArrayBuffer[] = [];
  /** Buffers `scratch` made: only these are reused (a small Buffer may share Node's pool with others). */
  private readonly own = new WeakSet<ArrayBufferLike>();

  /** The bytes of a remembered file with this sha256, or undefined. */
  get(hash: string): Uint8Array | undefined {
    return this.current.get(hash);
  }

  /** A buffer of `size` bytes, reusing a spare one when one is large enough (its old bytes remain: write all of it). */
  scratch(size: number): Buffer {
    const i = this.spares.findIndex((b) => b.byteLength >= size);
    if (i >= 0) return Buffer.from(this.spares.splice(i, 1)[0], 0, size);
    return Buffer.from(this.make(size), 0, size);
  }

  /** A new buffer for `size` bytes, with room to grow, so the next edits (pages get longer) reuse it. */
  private make(size: number): ArrayBuffer {
    const made = new ArrayBuffer(size + (size >> 4));
    this.own.add(made);
    return made;
  }

  /** Remembers the files a build published (by sha256), after their uploads; the files remembered before become spares. */
  remember(files: ReadonlyMap<string, Uint8Array>): void {
    const kept = new Set([...files.values()].map((b) => b.buffer));
    const old = [...this.current.values()].map((b) => b.buffer).filter((b): b is ArrayBuffer => this.own.has(b) && !kept.has(b));
    this.current = new Map(files);
    // As many spares as files: enough to double-buffer each, never a growing pile.
    this.spares = [...old, ...this.spares.filter((b) => !kept.has(b))].slice(0, Math.max(files.size, 1));
  }

  /**
   * Between builds: a spare for each remembered file, with room to grow, its memory touched now.
   * Otherwise a process's second build, the first with a file to slice, writes its
   * `llms-full.txt` into new memory and pays its page faults inside the build, as `scratch` finds
   * no spare until two builds have published. The build process calls it once a job is reported,
   * so the cost lands between jobs.
   */
  prepare(): void {
    for (const made of this.missing([...this.current.values()].map((b) => b.byteLength))) {
      new Uint8Array(made).fill(1);
      this.spares.push(made);
    }
  }

  /**
   * As `prepare`, for files of these sizes, touching the memory a few megabytes per turn of the
   * event loop: a build in a fresh process calls it while it waits for its sandbox to compile an
   * edit (a core otherwise idle), with the sizes of the `llms-full.txt` files it will write again,
   * so their page faults are not taken when the file is made. A spare joins the pool once
   * touched: call `scratch` after this settles.
   */
  async reserve(sizes: readonly number[]): Promise<void> {
    for (const made of this.missing(sizes)) {
      for (let at = 0; at < made.byteLength; at += TOUCH_BYTES) {
        new Uint8Array(made, at, Math.min(TOUCH_BYTES, made.byteLength - at)).fill(1);
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
      this.spares.push(made);
    }
  }

  /** New buffers (not yet pooled) for the sizes no spare has room for, largest first. */
  private missing(sizes: readonly number[]): ArrayBuffer[] {
    const free = this.spares.map((b) => b.byteLength).sort((a, b) => a - b);
    const made: ArrayBuffer[] = [];
    for (const size of [...sizes].sort((a, b) => b - a)) {
      const fits = free.findIndex((room) => room >= size);
      if (fits >= 0) free.splice(fits, 1);
      else made.push(this.make(size));
    }
    return made;
  }

  /**
   * The sha256 (hex) of `bytes`, to be published at `key`: resumed from where the file this memory
   * last hashed for `key` (and still remembers) first differs from them. An edit changes
   * `llms-full.txt` from its page on: the megabytes before it are compared (far cheaper than
   * hashing them) and their hash state taken as it was, so an edit hashes half of 55 MB on average.
   */
  sha256(key: string, bytes: Uint8Array): string {
    const last = this.hashed.get(key);
    const before = last && this.current.get(last.hash);
    let same = 0;
    // The remembered file is never a scratch buffer (see `remember`): checked all the same, as a
    // buffer compared with itself would pass for unchanged.
    if (last && before && before.buffer !== bytes.buffer) {
      const whole = Math.min(last.states.length, Math.floor(bytes.byteLength / CHECKPOINT_BYTES), Math.floor(before.byteLength / CHECKPOINT_BYTES));
      while (same < whole && Buffer.compare(bytes.subarray(same * CHECKPOINT_BYTES, (same + 1) * CHECKPOINT_BYTES), before.subarray(same * CHECKPOINT_BYTES, (same + 1) * CHECKPOINT_BYTES)) === 0) same++;
    }
    // states[i]: the hash after the first i + 1 whole checkpoints.
    const states = last ? last.states.slice(0, same) : [];
    const hash = same > 0 ? states[same - 1].copy() : createHash('sha256');
    for (let at = same * CHECKPOINT_BYTES; at < bytes.byteLength; at += CHECKPOINT_BYTES) {
      const end = Math.min(at + CHECKPOINT_BYTES, bytes.byteLength);
      hash.update(bytes.subarray(at, end));
      if (end - at === CHECKPOINT_BYTES) states.push(hash.copy());
    }
    const digest = hash.digest('hex');
    this.hashed.set(key, { hash: digest, states });
    return digest;
  }

  /**
   * Takes `bytes`, read back from the store for `key`, as remembered when their sha256 is `hash`
   * (the one the manifest records), keeping the hash's states: the `sha256` of the file made next
   * for `key` then resumes where that file first differs from them. A build in a fresh process
   * hashes the file it reads back to check it anyway; with this, the new file is hashed from the
   * edited page on (half of 55 MB on average at 10,000 pages) instead of whole. Returns whether
   * the bytes are the ones recorded (they are not remembered otherwise).
   */
  adopt(key: string, bytes: Uint8Array, hash: string): boolean {
    this.hashed.delete(key);
    if (this.sha256(key, bytes) !== hash) {
      this.hashed.delete(key);
      return false;
    }
    this.current.set(hash, bytes);
    return true;
  }

  /** Key → sha256 of the file `sha256` last hashed for it, and the hash's states at each checkpoint. */
  private hashed = new Map<string, { hash: string; states: Hash[] }>();
}

/** Bytes `reserve` touches per turn of the event loop. */
const TOUCH_BYTES = 2 << 20;

/** Bytes between the hash states `sha256` keeps (55 of them for a 55 MB file). */
const CHECKPOINT_BYTES = 1 << 20;
