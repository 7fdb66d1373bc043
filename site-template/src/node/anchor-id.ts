/**
 * Anchor ids as Mintlify makes them, so a link written against a Mintlify site (`#fees-&-billing`,
 * `#param-on-error`) reaches the same element here. Used for headings, `<Update>` labels, steps,
 * accordions and tabs ({@link anchorId}), and for `<ParamField>`/`<ResponseField>` ({@link paramId}).
 */

/** ASCII punctuation that separates words in an id (becomes a hyphen); `/`, `&`, `$`, `@`, `_` and `-` are kept. */
const SEPARATORS = /[\s.,:;!?()[\]{}<>"`'*+=|\\^~%#]+/gu;

/**
 * The id of a heading's text: lowercase (capitals inside a word too, without a hyphen), a straight
 * apostrophe turned into `’` and kept, whitespace, periods, parentheses and other ASCII
 * punctuation one hyphen, slashes, ampersands and other characters (accents, scripts, emoji)
 * kept, no hyphen at either end; a leading `_`, `@` or `$` is kept as Mintlify keeps it (`_meta`,
 * `@tool`: the in-page links of Mintlify sites use these ids), other punctuation does not start an
 * id: `Rate limits (per minute)` → `rate-limits-per-minute`,
 * `Read/write access` → `read/write-access`, `What's new` → `what’s-new`. Text with nothing left
 * gives `section`, so an id is never empty.
 */
export function anchorId(text: string): string {
  const id = text
    .normalize('NFC')
    .toLowerCase()
    .replace(/'/g, '’')
    .replace(SEPARATORS, '-')
    .replace(/-{2,}/g, '-')
    // `_meta`, `@tool` and `$ref-resolution` keep their first character; `&`, `/` and `’` do not start an id.
    .replace(/^[-&/’]+|-+$/g, '');
  return id || 'section';
}

const LEADING_MARKS = /^[_@$]+/u;

/**
 * Whether a link's fragment names the element with id `id` the way links on Mintlify sites do:
 * exactly, or without the id's leading `_`, `@` or `$` (`#meta` for `_meta`, `#ref-resolution`
 * for `$ref-resolution`): both forms are written in the same repositories, and Mintlify's own
 * link check accepts both. The link check and the site's script (which scrolls to such an
 * element) use this.
 */
export function fragmentNames(fragment: string, id: string): boolean {
  return fragment === id || (LEADING_MARKS.test(id) && fragment !== '' && id.replace(LEADING_MARKS, '') === fragment);
}

/**
 * The id of a `<ParamField>` or `<ResponseField>`: `param-` and its name in kebab case
 * (`onError` → `param-on-error`, `--max-session-duration` → `param-max-session-duration`,
 * `thumbnails.background` → `param-thumbnails-background`).
 */
export function paramId(name: string): string {
  const words = name
    .replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, '$1-$2')
    .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, '$1-$2')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '');
  return `param-${words || 'field'}`;
}
