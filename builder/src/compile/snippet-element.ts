/**
 * Mintlify's `<Snippet file="name.mdx" />`: the snippet's content in place, with the element's
 * other props as its variables. Each use becomes an import of the file (looked up in `snippets/`,
 * then `_snippets/`, unless the path names its folder) and an element of the imported
 * component, so it is checked, exported and searched like any imported snippet.
 */
import { posix } from 'node:path';
import type { Root, RootContent } from 'mdast';
import type { MdxjsEsm } from 'mdast-util-mdx';
import { userError } from '../errors.ts';
import { isJsx, stringProp, type JsxElement } from './jsx-attributes.ts';

/** Folders a bare snippet file name is looked up in, in order. */
export const SNIPPET_FOLDERS = ['snippets', '_snippets'] as const;

/** Candidate repository paths of a `file` prop. */
export function snippetCandidates(file: string): string[] {
  const clean = posix.normalize(file.trim().replace(/^\/+/, ''));
  if (clean === '..' || clean.startsWith('../')) return [];
  if (SNIPPET_FOLDERS.some((folder) => clean.startsWith(`${folder}/`))) return [clean];
  return SNIPPET_FOLDERS.map((folder) => `${folder}/${clean}`);
}

function importNode(name: string, path: string, element: JsxElement): MdxjsEsm {
  const spec = `/${path}`;
  const loc = element.position ? { start: { line: element.position.start.line, column: element.position.start.column - 1 }, end: { line: element.position.end.line, column: element.position.end.column - 1 } } : undefined;
  const declaration = {
    type: 'ImportDeclaration',
    specifiers: [{ type: 'ImportDefaultSpecifier', local: { type: 'Identifier', name } }],
    source: { type: 'Literal', value: spec, raw: JSON.stringify(spec) },
    attributes: [],
    ...(loc ? { loc } : {}),
  };
  return {
    type: 'mdxjsEsm', value: `import ${name} from ${JSON.stringify(spec)}`,
    data: { estree: { type: 'Program', sourceType: 'module', body: [declaration], comments: [] } as never },
  };
}

/** Rewrites every `<Snippet file>` of the page (in place); `read` tells which candidate exists. */
export async function expandSnippetElements(tree: Root, file: string, read: (path: string) => Promise<string | undefined>): Promise<void> {
  const uses: JsxElement[] = [];
  const visit = (nodes: RootContent[]): void => {
    for (const node of nodes) {
      if (isJsx(node as never, 'Snippet')) uses.push(node as unknown as JsxElement);
      if ('children' in node) visit(node.children as RootContent[]);
    }
  };
  visit(tree.children);
  const imports: MdxjsEsm[] = [];
  for (const [i, el] of uses.entries()) {
    const at = { file, line: el.position?.start.line, column: el.position?.start.column };
    const wanted = stringProp(el, 'file');
    if (wanted === undefined || wanted.trim() === '') throw userError('mdx_import', 'Unexpected <Snippet> without `file`; expected file="name.mdx"', at);
    const candidates = snippetCandidates(wanted);
    let found: string | undefined;
    for (const candidate of candidates) {
      if (await read(candidate) !== undefined) {
        found = candidate;
        break;
      }
    }
    if (found === undefined) {
      throw userError('mdx_import', `Unexpected <Snippet file="${wanted}">: ${candidates.length ? `${candidates.join(' and ')} ${candidates.length > 1 ? 'do' : 'does'} not exist in the repository` : 'it leaves the repository'}`, at);
    }
    const name = `FolioSnippet${i}`;
    imports.push(importNode(name, found, el));
    el.name = name;
    el.attributes = el.attributes.filter((a) => !(a.type === 'mdxJsxAttribute' && a.name === 'file'));
  }
  tree.children.push(...imports);
}
