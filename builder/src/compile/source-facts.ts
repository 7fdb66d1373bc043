/**
 * What an editor needs to know about a page's source without compiling it: its title, its
 * headings with the ids the build gives them (the same outline pass, so `#fees-&-billing` is
 * the anchor the site serves), and the links it writes with their positions (the same
 * collection the build's link check reads). Parsed with the build's own Markdown/MDX settings.
 */
import type { Heading, Nodes, Root } from 'mdast';
import remarkFrontmatter from 'remark-frontmatter';
import remarkGfm from 'remark-gfm';
import remarkMdx from 'remark-mdx';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import type { PageLink } from '../types.ts';
import { readFrontmatter } from './frontmatter.ts';
import { applyOutline } from './outline.ts';
import { collectLinks } from './page-links.ts';
import { plainText } from './search-text.ts';

/** A heading of a page: its anchor id, text and level. */
export interface SourceHeading { id: string; text: string; depth: number }

/** The title, headings and links of one page's source; `error` when it does not parse. */
export interface SourceFacts { title?: string; headings: SourceHeading[]; links: PageLink[]; error?: string }

const mdxParser = unified().use(remarkParse).use(remarkMdx).use(remarkFrontmatter, ['yaml']).use(remarkGfm);
const mdParser = unified().use(remarkParse).use(remarkFrontmatter, ['yaml']).use(remarkGfm);

/** Reads `text`, the source of the page at repository path `path` (`.mdx` or `.md`). */
export function sourceFacts(text: string, path: string): SourceFacts {
  let tree: Root;
  try {
    tree = (path.endsWith('.md') ? mdParser : mdxParser).parse(text);
  } catch (e) {
    return { headings: [], links: [], error: (e as Error).message };
  }
  let title: string | undefined;
  try {
    title = readFrontmatter(tree, path).title;
  } catch { /* a broken frontmatter leaves the title to the first heading */ }
  try {
    const links = collectLinks(tree);
    const outline = applyOutline(tree, path);
    const headings: SourceHeading[] = [];
    const visit = (node: Nodes): void => {
      if (node.type === 'heading') {
        const id = (node as Heading).data?.hProperties?.id;
        if (typeof id === 'string') headings.push({ id, text: plainText(node).replace(/#$/, '').trim(), depth: node.depth });
      }
      if ('children' in node) for (const child of node.children) visit(child as Nodes);
    };
    visit(tree);
    return { title: title ?? outline.firstH1, headings, links };
  } catch (e) {
    // A page the build would refuse still gets listed (its compile reports the problem with its place).
    return { title, headings: [], links: [], error: (e as Error).message };
  }
}
