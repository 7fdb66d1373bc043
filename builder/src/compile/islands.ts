/**
 * Interactive components in the reader's browser. A page that renders a component using React
 * hooks (`useState`, `useEffect`, …), defined in its own ESM or imported from a `.jsx`/`.js`
 * snippet, gets it hydrated on the client: each use becomes `<FolioIsland c="Counter" of={Counter}
 * …props/>`, rendered on the server as `<folio-island data-c="Counter" data-p="{props as JSON}">`
 * around the component's HTML, and the page's facts carry the source of a small client module
 * (its hook components and the loop that hydrates the marked roots). The build bundles that
 * module with Preact (outputs/island-bundle.ts); a page without such a component ships no
 * extra script.
 *
 * Built-in components the page's own hook components name (`<Card icon="rocket">` without an
 * import) are bound in the client module to the template's, as on the server; the template's icon
 * lookup reads icon files on the server, so the module carries the icons its components can name
 * (every string of their code and of the islands' props that is an icon name, resolved now) and
 * the bundle gives the components a lookup reading them (icon-library.browser.ts).
 *
 * Limits (documented in builder docs/authoring.md): only uses without children become islands (MDX
 * children cannot cross to the browser), props must be JSON (functions are dropped), and the
 * client module holds the hook components and their imports.
 */
import type { Parent, Root } from 'mdast';
import type { MdxJsxAttribute } from 'mdast-util-mdx-jsx';
import { resolveIcon } from '@folio/site-template/components/icon-library.ts';
import { BROWSER_ICONS, FA_STYLES, iconKey, type IconSvg } from '@folio/site-template/components/icon-name.ts';
import { BUILT_IN_NAMES, unboundComponents } from './component-scope.ts';
import { isJsx } from './jsx-attributes.ts';
import { resolveRepoImport } from './imports.ts';
import { HOOKS } from './page-globals.ts';
import { TEMPLATE_COMPONENTS } from './template-components.ts';

/** Name of the internal component that marks an interactive component's root. */
export const ISLAND_COMPONENT = 'FolioIsland';

/** The template module a client module may import besides Preact: its components. */
export const CLIENT_TEMPLATE_MODULE = TEMPLATE_COMPONENTS;

/** Quoted strings of code (a rough reading: it only picks the candidates for icon names). */
const QUOTED = /(["'`])([\w -]{1,64})\1/g;

/** The icons `texts` can name, by lookup key (icon-name.ts), with every Font Awesome style the texts write. */
function iconsNamed(texts: readonly string[]): Record<string, IconSvg> {
  const words = new Set<string>();
  for (const text of texts) for (const m of text.matchAll(QUOTED)) words.add(m[2]);
  const styles = [undefined, ...FA_STYLES.filter((s) => words.has(s)), ...(['light', 'thin', 'duotone'].some((s) => words.has(s)) && !words.has('solid') ? ['solid'] : [])];
  const icons: Record<string, IconSvg> = {};
  for (const word of words) {
    for (const style of styles) {
      const key = iconKey(word, style);
      const svg = key === undefined ? undefined : resolveIcon(word, style);
      if (key !== undefined && svg) icons[key] = svg;
    }
  }
  return icons;
}

const HOOK_CALL = new RegExp(`\\b(?:${[...HOOKS].join('|')})\\s*\\(`);

interface EsDecl { type: string; start: number; end: number; [key: string]: unknown }

/** The names a top-level declaration binds to a function (`const A = () => …`, `function A() {}`). */
function declaredNames(decl: EsDecl): string[] {
  if (decl.type === 'FunctionDeclaration') return [(decl.id as { name: string }).name];
  if (decl.type !== 'VariableDeclaration') return [];
  return (decl.declarations as Array<{ id: { type: string; name?: string } }>).filter((d) => d.id.type === 'Identifier').map((d) => d.id.name!);
}

function expressionAttribute(name: string, value: string): MdxJsxAttribute {
  return {
    type: 'mdxJsxAttribute', name,
    value: {
      type: 'mdxJsxAttributeValueExpression', value,
      data: { estree: { type: 'Program', sourceType: 'module', body: [{ type: 'ExpressionStatement', expression: { type: 'Identifier', name: value } }] } as never },
    },
  };
}

/**
 * Marks the page's uses of hook components as islands (in place) and returns the source of its
 * client module, or undefined when the page has none.
 */
export async function applyIslands(tree: Root, source: string, file: string, read: (repoPath: string) => Promise<string | undefined>): Promise<string | undefined> {
  const names = new Set<string>();
  const imports: string[] = [];
  const declarations: string[] = [];
  /** The client module's statements as parsed, and the text of the files it imports. */
  const statements: EsDecl[] = [];
  const importedTexts: string[] = [];
  for (const node of tree.children) {
    if (node.type !== 'mdxjsEsm') continue;
    for (const statement of ((node.data?.estree as { body?: EsDecl[] } | undefined)?.body ?? [])) {
      if (statement.type === 'ImportDeclaration') {
        const spec = String((statement.source as { value: unknown }).value);
        if (!/\.jsx?$/.test(spec)) continue;
        const resolved = resolveRepoImport(spec, file);
        const text = resolved.ok ? await read(resolved.path) : undefined;
        if (text === undefined || !HOOK_CALL.test(text)) continue;
        for (const s of statement.specifiers as Array<{ local: { name: string } }>) names.add(s.local.name);
        imports.push(source.slice(statement.start, statement.end));
        statements.push(statement);
        importedTexts.push(text);
        continue;
      }
      const decl = (statement.type === 'ExportNamedDeclaration' ? statement.declaration : statement) as EsDecl | null;
      if (!decl) continue;
      const text = source.slice(decl.start, decl.end);
      const bound = declaredNames(decl);
      if (bound.length === 0 || !HOOK_CALL.test(text)) continue;
      for (const name of bound) names.add(name);
      declarations.push(text);
      statements.push(decl);
    }
  }
  if (names.size === 0) return undefined;
  const used = new Set<string>();
  const propTexts: string[] = [];
  const visit = (parent: Parent): void => {
    for (const child of parent.children) {
      if (isJsx(child as never) && names.has((child as { name?: string }).name ?? '') && (child as Parent).children.length === 0) {
        const el = child as unknown as { name: string; attributes: MdxJsxAttribute[] };
        used.add(el.name);
        for (const a of el.attributes) propTexts.push(typeof a.value === 'string' ? JSON.stringify(a.value) : a.value?.value ?? '');
        el.attributes = [{ type: 'mdxJsxAttribute', name: 'c', value: el.name }, expressionAttribute('of', el.name), ...el.attributes];
        el.name = ISLAND_COMPONENT;
      }
      if ('children' in child) visit(child as Parent);
    }
  };
  visit(tree);
  if (used.size === 0) return undefined;
  const builtIns = unboundComponents({ type: 'Program', body: statements });
  // Snippets bind the built-ins they name when bundled (outputs/island-bundle.ts): their icons are carried too.
  const namesBuiltIn = builtIns.length > 0 || importedTexts.some((t) => [...BUILT_IN_NAMES].some((n) => t.includes(`<${n}`)));
  const icons = namesBuiltIn ? iconsNamed([...declarations, ...importedTexts, ...propTexts]) : {};
  return [
    "import { h, hydrate } from 'preact';",
    `import { ${[...HOOKS].join(', ')} } from 'preact/hooks';`,
    ...(builtIns.length ? [`import { components as __folio_components__ } from '${CLIENT_TEMPLATE_MODULE}';`] : []),
    ...imports,
    ...(builtIns.length ? [`const { ${builtIns.join(', ')} } = __folio_components__;`] : []),
    ...(Object.keys(icons).length ? [`globalThis.${BROWSER_ICONS} = ${JSON.stringify(icons)};`] : []),
    ...declarations,
    `const islands = { ${[...used].join(', ')} };`,
    "for (const el of document.querySelectorAll('folio-island[data-c]')) {",
    "  const C = islands[el.getAttribute('data-c')];",
    "  if (!C) continue;",
    "  hydrate(h(C, JSON.parse(el.getAttribute('data-p') || '{}')), el);",
    // Styles and scripts may wait for it: the component responds from now on.
    "  el.setAttribute('data-hydrated', '');",
    '}',
    '',
  ].join('\n');
}

/** Props as the browser receives them: JSON values only (functions and children are dropped). */
export function islandProps(props: Record<string, unknown>): string {
  const { c: _c, of: _of, children: _children, ...rest } = props;
  return JSON.stringify(rest, (_key, value) => (typeof value === 'function' || typeof value === 'symbol' ? undefined : value)) ?? '{}';
}
