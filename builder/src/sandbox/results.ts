/**
 * What a sandbox answers is untrusted: page code runs there and could send anything on the
 * channel. Every result is checked against the shape of a `CompiledPage` or `PageFailure` here,
 * its path fields are set by the builder (never taken from the sandbox), and failure messages are
 * cut short and stripped of the platform's own paths, so a message shown to the customer says
 * what went wrong in their file and nothing about the machine that built it.
 */
import { z } from 'zod';
import type { CompileInput } from '../compile/compiler.ts';
import { MAX_ICON } from '../compile/assemble.ts';
import { MAX_PAGE_LINKS } from '../compile/page-links.ts';
import { urlPathFor } from '../compile/url-path.ts';
import type { CompiledPage, PageFailure } from '../types.ts';
import { outputSize, outputTooLarge } from './page-output.ts';
import { PLATFORM_ROOT } from './runtime.ts';

export { MAX_PAGE_OUTPUT } from './page-output.ts';

/** Longest failure message kept; MDX's own messages are far shorter. */
export const MAX_MESSAGE = 1000;

/** Longest client module source a page may hand over (its hook components and their imports). */
export const MAX_ISLAND_SOURCE = 256 * 1024;

/** Notes a page may hand over (unknown components, expressions naming nothing), and the longest name or expression kept in one. */
export const MAX_PAGE_NOTES = 1000;
const MAX_NOTE_NAME = 1000;

const text = z.string();
// In the order the compiler writes them: cached entries keep their exact bytes.
const compiledPage = z.object({
  title: text,
  frontmatter: z.record(z.string(), z.unknown()),
  bodyHtml: text,
  markdown: text,
  toc: z.array(z.object({ depth: z.number().int(), id: text, text })),
  updates: z.array(z.object({ id: text, label: text, description: text, date: text.optional(), html: text })),
  rss: z.boolean(),
  searchText: text,
  sidebarTitle: text.optional(),
  order: z.number().optional(),
  description: text.optional(),
  seo: z.record(z.string(), z.unknown()).optional(),
  mode: z.enum(['wide', 'center', 'frame', 'custom']).optional(),
  icon: text.max(MAX_ICON).optional(),
  hidden: z.literal(true).optional(),
  url: text.max(MAX_ICON).optional(),
  links: z.array(z.object({ href: text.max(4096), line: z.number().int().min(1), column: z.number().int().min(1) })).max(MAX_PAGE_LINKS).optional(),
  islands: text.max(MAX_ISLAND_SOURCE).optional(),
  notes: z.array(z.object({
    kind: z.enum(['component', 'expression']), name: text.max(MAX_NOTE_NAME),
    line: z.number().int().min(1).optional(), column: z.number().int().min(1).optional(), suggestion: text.max(MAX_NOTE_NAME).optional(),
  })).max(MAX_PAGE_NOTES).optional(),
});
const pageFailure = z.object({ message: text, line: z.number().int().optional(), column: z.number().int().optional() });

/** A failure message fit to show the customer: bounded, no control characters, no host paths. */
export function cleanMessage(message: string): string {
  let out = message.split(PLATFORM_ROOT).join('<platform>');
  out = out.replace(/(?<![\w.:/-])\/(?:tmp|var|home|root|proc|etc|run|srv|opt|app|data|work)\/[^\s'"`)]*/g, '<path>');
  // eslint-disable-next-line no-control-regex
  out = out.replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, '');
  return out.length > MAX_MESSAGE ? `${out.slice(0, MAX_MESSAGE)}…` : out;
}

/** A failure of `input` with `message` (cleaned). */
export function failureOf(input: CompileInput, message: string, where: { line?: number; column?: number } = {}): PageFailure {
  return { sourcePath: input.sourcePath, message: cleanMessage(message), ...where };
}

/**
 * The chunk's results as the builder will use them: one per input, in order. A malformed answer
 * fails the pages it covers (their code was the only thing that could have written it).
 */
export function checkResults(inputs: CompileInput[], raw: unknown): Array<CompiledPage | PageFailure> {
  const list = Array.isArray(raw) && raw.length === inputs.length ? raw : undefined;
  return inputs.map((input, i) => {
    const item = list?.[i];
    if (item && typeof item === 'object' && 'bodyHtml' in item) {
      const page = compiledPage.safeParse(item);
      const tooLarge = page.success ? outputTooLarge(outputSize(page.data)) : undefined;
      if (tooLarge) return failureOf(input, tooLarge);
      if (page.success) {
        return { sourcePath: input.sourcePath, urlPath: urlPathFor(input.sourcePath, input.contentRoot), ...page.data } as CompiledPage;
      }
    } else {
      const failure = pageFailure.safeParse(item);
      if (failure.success) {
        const { message, line, column } = failure.data;
        return failureOf(input, message, { ...(line !== undefined ? { line } : {}), ...(column !== undefined ? { column } : {}) });
      }
    }
    return failureOf(input, 'Unexpected answer from the page compile; the page may have tampered with its compiler');
  });
}
