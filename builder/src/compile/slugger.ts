/**
 * Heading and update anchor ids, as Mintlify makes them (`anchorId`: `Fees & billing` →
 * `fees-&-billing`), made unique per page by suffixing `-2`, `-3`, … in document order.
 */
import { anchorId } from '@folio/site-template/node/anchor-id.ts';

/** Slug of one text, not yet unique. Empty text gives `section`. */
export function slugify(text: string): string {
  return anchorId(text);
}

/** Hands out unique slugs for one page. */
export class Slugger {
  readonly #seen = new Map<string, number>();

  /** A unique slug for `text`: the second `Overview` is `overview-2`. */
  slug(text: string): string {
    const base = slugify(text);
    let id = base;
    let n = this.#seen.get(base) ?? 1;
    while (this.#seen.has(id)) id = `${base}-${++n}`;
    this.#seen.set(base, n);
    this.#seen.set(id, this.#seen.get(id) ?? 1);
    return id;
  }
}
