/**
 * The build's warnings for what pages hold that builds but is not what it seems (their notes,
 * compile/unknown-components.ts and compile/undefined-names.ts): one line per unknown component
 * name with how many pages use it and where it is first written, and one line per page whose
 * prose has expressions naming nothing. Read from the pages' summaries, so a build that
 * compiles nothing warns as the one that compiled them did.
 */
import type { PageRecord } from '../state/page-bodies.ts';

/** The warning lines of the pages in `sources` (in that order) that have a published version of this build. */
export function pageNoteLines(sources: readonly string[], records: ReadonlyMap<string, PageRecord>, failed: ReadonlySet<string>): string[] {
  const components = new Map<string, { first: string; pages: number; suggestion?: string }>();
  const expressions: string[] = [];
  for (const p of sources) {
    const notes = failed.has(p) ? undefined : records.get(p)?.summary.notes;
    if (!notes) continue;
    const at = (n: { line?: number; column?: number }) => `${p}${n.line !== undefined ? `:${n.line}:${n.column ?? 1}` : ''}`;
    const named = new Set<string>();
    for (const note of notes) {
      if (note.kind !== 'component' || named.has(note.name)) continue;
      named.add(note.name);
      const seen = components.get(note.name);
      if (seen) seen.pages++;
      else components.set(note.name, { first: at(note), pages: 1, ...(note.suggestion ? { suggestion: note.suggestion } : {}) });
    }
    const written = notes.filter((n) => n.kind === 'expression');
    if (written.length > 0) {
      const more = written.length > 1 ? ` (and ${written.length - 1} more on this page)` : '';
      expressions.push(`${at(written[0])}: \`{${written[0].name}}\` names nothing the page defines; shown as written${more}. Write \\{ or use code for braces in text`);
    }
  }
  const componentLines = [...components].map(([name, { first, pages, suggestion }]) =>
    `\`<${name}>\` is neither a built-in component nor imported or defined in the page; its content is shown in a plain container${suggestion ? ` (did you mean \`<${suggestion}>\`?)` : ''}: ${pages === 1 ? '1 page' : `${pages} pages`}, first ${first}`);
  return [...componentLines, ...expressions];
}
