/**
 * Heading levels in the Markdown export: what a section component (`Tab`, `Accordion`, `View`,
 * `Update`) holds is written under the section's own heading, so the headings it holds must be
 * deeper than that heading, or a reader would take them (and what follows) for the next section.
 */
import type { Nodes, RootContent } from 'mdast';

const ATX = /^( {0,3})(#{1,6})(?=[ \t]|$)/;
const FENCE = /^[ \t]*(`{3,}|~{3,})/;

/** The shallowest depth of the headings among `nodes` and their descendants, or undefined when none. */
export function shallowestHeading(nodes: readonly RootContent[]): number | undefined {
  let min: number | undefined;
  const visit = (node: Nodes) => {
    if (node.type === 'heading') min = Math.min(min ?? 6, node.depth);
    if ('children' in node) for (const c of node.children) visit(c as Nodes);
  };
  for (const n of nodes) visit(n);
  return min;
}

/** Lines of exported Markdown outside fenced code, as `[line, inFence]` pairs. */
function* linesWithFences(markdown: string): Generator<[string, boolean]> {
  let fence: string | undefined;
  for (const line of markdown.split('\n')) {
    const m = FENCE.exec(line);
    if (fence === undefined) {
      if (m) fence = m[1];
      yield [line, m !== null];
    } else {
      if (m && m[1][0] === fence[0] && m[1].length >= fence.length && line.trim() === m[1]) fence = undefined;
      yield [line, true];
    }
  }
}

/**
 * Exported Markdown (a snippet's) with its ATX headings made at least `floor` deep, all moved by
 * the same amount so their order of depth stays (at most 6). Fenced code is left alone.
 */
export function headingsAtLeast(markdown: string, floor: number): string {
  let min = 7;
  for (const [line, code] of linesWithFences(markdown)) {
    const m = code ? null : ATX.exec(line);
    if (m) min = Math.min(min, m[2].length);
  }
  if (min >= floor || min === 7) return markdown;
  const by = floor - min;
  const out: string[] = [];
  for (const [line, code] of linesWithFences(markdown)) {
    out.push(code ? line : line.replace(ATX, (_, pad: string, hashes: string) => pad + '#'.repeat(Math.min(6, hashes.length + by))));
  }
  return out.join('\n');
}
