/**
 * The blocks of a compiled page that Mintlify shows in the right-hand column: `<RequestExample>`,
 * `<ResponseExample>` and `<Panel>` written at the top level of the page. They are taken out of
 * the body's HTML as they are (parse5 finds where each top-level element starts and ends), so the
 * page can lay them out beside the rest; nested ones (inside tabs, steps…) stay where they are.
 */
import { parseFragment } from 'parse5';

/** A page's body split: `main` without the blocks, `aside` the blocks in their order (`''` when none). */
export interface PageAside { main: string; aside: string }

/** Whether a top-level element is one of the side column's blocks. */
function isAsideBlock(tag: string, classes: string): boolean {
  const list = classes.split(/\s+/);
  return (tag === 'div' && list.includes('api-example')) || (tag === 'aside' && list.includes('panel'));
}

/** Splits `html` (see the module comment); a body without such blocks is returned whole as `main`. */
export function splitAside(html: string): PageAside {
  // Cheap test first: most pages have none.
  if (!html.includes('api-example') && !html.includes('class="panel"')) return { main: html, aside: '' };
  const fragment = parseFragment(html, { sourceCodeLocationInfo: true });
  const main: string[] = [];
  const aside: string[] = [];
  let at = 0;
  for (const node of fragment.childNodes) {
    const where = node.sourceCodeLocation;
    if (!where || !('tagName' in node)) continue;
    const classes = node.attrs.find((a) => a.name === 'class')?.value ?? '';
    if (!isAsideBlock(node.tagName, classes)) continue;
    main.push(html.slice(at, where.startOffset));
    aside.push(html.slice(where.startOffset, where.endOffset));
    at = where.endOffset;
  }
  main.push(html.slice(at));
  return { main: main.join(''), aside: aside.join('') };
}
