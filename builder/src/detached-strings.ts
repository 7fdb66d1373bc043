/**
 * Copies of strings that share no storage with the text they were cut from.
 *
 * V8 keeps a substring of 13 characters or more (a regular expression's match, `split`, `slice`)
 * as a view of its parent string, so one such id kept in a page summary keeps the page's whole
 * rendered HTML alive. Summaries live for the whole build: at 10,000 pages their ids and class
 * names held every page's body, about 25 KB each. A JSON round trip makes every string new and
 * flat, at a cost of microseconds per page.
 */
export function detachedStrings(list: readonly string[]): string[] {
  return JSON.parse(JSON.stringify(list)) as string[];
}
