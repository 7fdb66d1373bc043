import type { AppError } from '../errors.ts';

/**
 * Things in progress per key (a site's open answer streams, a deployment's uploads), at most `max`
 * of them: `acquire` takes a slot or throws the error `refuse` makes (a 429).
 */
export class SlotsPerKey {
  readonly #open = new Map<string, number>();
  readonly max: number;
  readonly #refuse: () => AppError;
  constructor(max: number, refuse: () => AppError) { this.max = max; this.#refuse = refuse; }

  /** Takes a slot for `key` (release it when the work ends; releasing twice is harmless), or throws. */
  acquire(key: string): () => void {
    const open = this.#open.get(key) ?? 0;
    if (open >= this.max) throw this.#refuse();
    this.#open.set(key, open + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.#open.get(key) ?? 1) - 1;
      if (left <= 0) this.#open.delete(key); else this.#open.set(key, left);
    };
  }
}
