/**
 * Heading and update anchor ids: GitHub-style slugs (lowercase, punctuation dropped, spaces to
 * hyphens), made unique per page by suffixing `-1`, `-2`, … in document order.
 */

/** Slug of one text, not yet unique. Empty text gives `section`. */
export function slugify(text: string): string {
  const slug = text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .trim()
    .replace(/\s+/g, '-');
  return slug === '' ? 'section' : slug;
}

/** Hands out unique slugs for one page. */
export class Slugger {
  readonly #seen = new Map<string, number>();

  /** A unique slug for `text`. */
  slug(text: string): string {
    const base = slugify(text);
    let id = base;
    let n = this.#seen.get(base) ?? 0;
    while (this.#seen.has(id)) id = `${base}-${++n}`;
    this.#seen.set(base, n);
    this.#seen.set(id, this.#seen.get(id) ?? 0);
    return id;
  }
}
