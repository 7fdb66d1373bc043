/**
 * A site's `llms-full.txt` parsed into pages, and parsed again after a deployment from where its
 * bytes differ: a one-page edit of a 10,000-page site changes a few KB of a 55 MB file, and
 * decoding and parsing the whole of it on the control plane's event loop took ~0.45 s on a slow
 * machine at every deployment (the index after it reuses the unchanged pages' terms by the
 * identity of their Markdown, bm25-index.ts). The bytes both files share at their start and end
 * are compared (memcmp); the pages lying wholly inside them are the last parse's page objects,
 * and only the pages between are decoded and parsed (as `parseLlmsFull` does, so the result is
 * the same as parsing the whole file).
 */
import { parsePagesAt, SOURCE_LINE_AT, type SitePage } from './sections.ts';

/** One parse of an export, kept for the next. */
export interface ExportPages {
  bytes: Buffer;
  pages: SitePage[];
  /** Byte offset of each page's `---` line; undefined when not known (bytes that are not UTF-8): the next parse is whole. */
  starts?: number[];
}

/** Bytes compared at a time while looking for the first difference. */
const CHUNK = 64 * 1024;

function commonPrefix(a: Buffer, b: Buffer, max: number): number {
  let i = 0;
  while (i + CHUNK <= max && a.subarray(i, i + CHUNK).equals(b.subarray(i, i + CHUNK))) i += CHUNK;
  while (i < max && a[i] === b[i]) i++;
  return i;
}

function commonSuffix(a: Buffer, b: Buffer, max: number): number {
  let n = 0;
  while (n + CHUNK <= max && a.subarray(a.length - n - CHUNK, a.length - n).equals(b.subarray(b.length - n - CHUNK, b.length - n))) n += CHUNK;
  while (n < max && a[a.length - n - 1] === b[b.length - n - 1]) n++;
  return n;
}

/** Whether a page starts at byte `at` of `bytes` (its `---` / `Source:` lines, as `parseLlmsFull` finds them). */
function startsPage(bytes: Buffer, at: number): boolean {
  if (at > 0 && bytes[at - 1] !== 0x0a) return false;
  const end = bytes.indexOf('\n\n', at + 6);
  if (end < 0) return false;
  return SOURCE_LINE_AT.test(bytes.toString('utf8', at, end + 2));
}

/** Parses `bytes[from, to)` (from 0 or a page's start, to a page's start or the end) into pages with their byte offsets. */
function parseRange(bytes: Buffer, from: number, to: number): { pages: SitePage[]; starts?: number[] } {
  const text = bytes.toString('utf8', from, to);
  const { pages, at } = parsePagesAt(text);
  // A byte that is not UTF-8 decodes to U+FFFD, whose length is not its own: offsets are not counted then.
  if (text.includes('\uFFFD')) return { pages };
  // Character offsets to byte offsets: the same where the text is ASCII, else counted between pages.
  const ascii = text.length === to - from;
  const starts: number[] = [];
  let char = 0;
  let byte = from;
  for (const offset of at) {
    byte += ascii ? offset - char : Buffer.byteLength(text.slice(char, offset));
    char = offset;
    starts.push(byte);
  }
  return { pages, starts };
}

/** The pages of `bytes`, reusing `last`'s for the parts both share. */
export function exportPages(bytes: Buffer, last?: ExportPages): ExportPages {
  if (!last?.starts) return { bytes, ...parseRange(bytes, 0, bytes.length) };
  const { starts: lastStarts } = last;
  const shorter = Math.min(bytes.length, last.bytes.length);
  const prefix = commonPrefix(bytes, last.bytes, shorter);
  const suffix = commonSuffix(bytes, last.bytes, shorter - prefix);
  const shift = bytes.length - last.bytes.length;
  // Pages before `head` are kept: each ends where the next starts, inside the shared prefix, and
  // that next start must still open a page in the new bytes.
  let head = 0;
  while (head < lastStarts.length && lastStarts[head] <= prefix) head++;
  while (head > 0 && !startsPage(bytes, lastStarts[head - 1])) head--;
  const from = head > 0 ? lastStarts[head - 1] : 0;
  const kept = Math.max(0, head - 1);
  // Pages from `tail` on are kept: they lie wholly inside the shared suffix, and still start a page where they moved to.
  let tail = lastStarts.length;
  while (tail > kept && lastStarts[tail - 1] >= last.bytes.length - suffix && lastStarts[tail - 1] + shift >= from) tail--;
  while (tail < lastStarts.length && !startsPage(bytes, lastStarts[tail] + shift)) tail++;
  const to = tail < lastStarts.length ? lastStarts[tail] + shift : bytes.length;
  const middle = parseRange(bytes, from, to);
  return {
    bytes,
    pages: [...last.pages.slice(0, kept), ...middle.pages, ...last.pages.slice(tail)],
    ...(middle.starts ? { starts: [...lastStarts.slice(0, kept), ...middle.starts, ...lastStarts.slice(tail).map((s) => s + shift)] } : {}),
  };
}
