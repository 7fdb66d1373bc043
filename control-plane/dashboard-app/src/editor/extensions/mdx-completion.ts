/**
 * Autocomplete for MDX pages and the slash menu. Sources, tried in order:
 * - components after `<` (the catalogue; accepting inserts the component's snippet);
 * - props inside a start tag (those not written yet; accepting a prop with allowed values, an
 *   icon or a link opens the value list at once), and values inside `prop="…"`: the allowed
 *   values, icon names for `icon`, page URLs and anchors for `href` and link props;
 * - internal links after `](`: page URLs, and `#anchors` of a page (or of this page);
 * - the slash menu: `/` at the start of a line offers blocks (headings, lists, code block,
 *   table, image …), callouts and every component.
 * Nothing is offered inside code, frontmatter or ESM.
 */
import { autocompletion, snippet, startCompletion, type Completion, type CompletionContext, type CompletionResult, type CompletionSource } from '@codemirror/autocomplete';
import { syntaxTree } from '@codemirror/language';
import type { EditorView } from '@codemirror/view';
import type { Extension } from '@codemirror/state';
import { COMPONENT_CATALOGUE, catalogueEntry, type CatalogueEntry, type CatalogueProp } from '@folio/site-template/shared/component-catalogue.ts';
import { ICON_NAMES } from '@folio/site-template/shared/icon-names.ts';
import type { ExtensionsApi, LinkTarget } from './api.ts';
import { documentHeadings, linkContext, tagContext } from './tag-context.ts';

/** How much text before the cursor the tag scanner reads. */
const WINDOW = 4000;
/** How long a fetched list of pages is used before asking again. */
const LINKS_TTL_MS = 30_000;

const NO_COMPLETION = new Set(['FencedCode', 'CodeBlock', 'InlineCode', 'CodeText', 'Frontmatter', 'Esm', 'Comment', 'CommentBlock']);

/** True when the position is in code, frontmatter or ESM, where nothing is offered. */
function inCode(context: CompletionContext): boolean {
  for (let node: ReturnType<typeof syntaxTree>['topNode'] | null = syntaxTree(context.state).resolveInner(context.pos, -1); node; node = node.parent) {
    if (NO_COMPLETION.has(node.name)) return true;
  }
  return false;
}

/** Applies a snippet over `from - back … to`, then reopens completion when `reopen` (a value list follows). */
function applySnippet(template: string, back: number, reopen = false) {
  const apply = snippet(template);
  return (view: EditorView, completion: Completion, from: number, to: number) => {
    apply(view, completion, from - back, to);
    if (reopen) setTimeout(() => startCompletion(view), 0);
  };
}

function entryInfo(entry: CatalogueEntry): string {
  const props = entry.props.map((p) => `${p.name}${p.required ? ' (required)' : ''}`).join(', ');
  const aliases = entry.aliases.length ? ` Mintlify also calls it ${entry.aliases.join(', ')}.` : '';
  return `${entry.description}${aliases}${props ? `\nProps: ${props}` : ''}`;
}

/** Completion of a catalogue entry, inserting its snippet over `back` characters before the match (`<`, `/`). */
function componentCompletion(entry: CatalogueEntry, back: number, section?: string): Completion {
  return { label: entry.name, detail: entry.description, info: entryInfo(entry), type: 'type', section, apply: applySnippet(entry.snippet, back) };
}

const componentOptions = COMPONENT_CATALOGUE.map((entry) => componentCompletion(entry, 1));

/** `<Ca` → the components. */
const components: CompletionSource = (context) => {
  const match = context.matchBefore(/<[A-Z][\w.]*$|<$/);
  if (!match || inCode(context)) return null;
  return { from: match.from + 1, options: componentOptions, validFor: /^[\w.]*$/ };
};

function propApply(prop: CatalogueProp): Completion['apply'] {
  const opens = prop.type === 'icon' || prop.type === 'link' || !!prop.values?.length;
  if (prop.type === 'boolean') return prop.name;
  if (prop.type === 'number' || prop.type === 'json') return applySnippet(`${prop.name}={\${}}`, 0);
  return applySnippet(`${prop.name}="\${}"`, 0, opens);
}

/** Pages for link completion, fetched on first use and kept for a while; a failed call gives none. */
function linkCache(api: ExtensionsApi): () => Promise<LinkTarget[]> {
  let at = 0;
  let pending: Promise<LinkTarget[]> | undefined;
  return () => {
    if (!pending || Date.now() - at > LINKS_TTL_MS) {
      at = Date.now();
      pending = api.links().then((r) => r.pages, () => {
        at = 0;
        return [];
      });
    }
    return pending;
  };
}

/** URLs and anchors for a link target typed so far (`/guides/x#in`), starting at `from`. */
async function linkResult(target: string, from: number, pages: () => Promise<LinkTarget[]>, docText: string, path?: string): Promise<CompletionResult | null> {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return null;
  const hash = target.indexOf('#');
  const list = await pages();
  if (hash >= 0) {
    const url = target.slice(0, hash);
    const page = url ? list.find((p) => p.url === url || p.url === url.replace(/\/$/, '')) : list.find((p) => p.path === path);
    const headings = page ? page.headings : url ? [] : documentHeadings(docText);
    return {
      from: from + hash + 1,
      options: headings.map((h) => ({ label: h.id, detail: h.text, type: 'property', boost: -h.depth })),
      validFor: /^[\w-]*$/,
    };
  }
  return {
    from,
    options: list.map((p) => ({ label: p.url, detail: p.title, type: 'file' })),
    validFor: /^[^\s#)"']*$/,
  };
}

/** Every icon name as a completion (made once: there are thousands). */
let iconOptions: Completion[] | undefined;
const icons = () => (iconOptions ??= ICON_NAMES.map((name) => ({ label: name, type: 'constant' })));

/** Props and values inside a start tag. */
function tagSource(pages: () => Promise<LinkTarget[]>, path?: string): CompletionSource {
  return async (context) => {
    const start = Math.max(0, context.pos - WINDOW);
    const tag = tagContext(context.state.sliceDoc(start, context.pos));
    if (!tag || inCode(context)) return null;
    const entry = catalogueEntry(tag.name);
    if (tag.kind === 'attr') {
      if (!entry) return null;
      const options = entry.props.filter((p) => !tag.attrs.includes(p.name)).map((p): Completion => ({
        label: p.name, detail: p.type + (p.required ? ', required' : ''), info: p.description, type: 'property', apply: propApply(p), boost: p.required ? 1 : 0,
      }));
      return { from: start + tag.from, options, validFor: /^[\w-]*$/ };
    }
    const prop = entry?.props.find((p) => p.name === tag.attr);
    const from = start + tag.from;
    if (prop?.type === 'icon' || tag.attr === 'icon') return { from, options: icons(), validFor: /^[\w-]*$/ };
    if (prop?.type === 'link' || tag.attr === 'href') {
      return linkResult(context.state.sliceDoc(from, context.pos), from, pages, context.state.doc.toString(), path);
    }
    if (prop?.values?.length) return { from, options: prop.values.map((v) => ({ label: v, type: 'enum', detail: v === prop.default ? 'default' : undefined })), validFor: /^[\w-]*$/ };
    return null;
  };
}

/** `](` → page URLs and anchors. */
function markdownLinkSource(pages: () => Promise<LinkTarget[]>, path?: string): CompletionSource {
  return async (context) => {
    const line = context.state.doc.lineAt(context.pos);
    const link = linkContext(context.state.sliceDoc(line.from, context.pos));
    if (!link || inCode(context)) return null;
    return linkResult(link.target, line.from + link.from, pages, context.state.doc.toString(), path);
  };
}

/** Blocks the slash menu inserts besides components. */
const BLOCKS: { label: string; detail: string; template: string }[] = [
  { label: 'Heading 2', detail: 'Section heading', template: '## ${Heading}' },
  { label: 'Heading 3', detail: 'Subsection heading', template: '### ${Heading}' },
  { label: 'Heading 4', detail: 'Small heading', template: '#### ${Heading}' },
  { label: 'Bulleted list', detail: 'A list with bullets', template: '- ${Item}' },
  { label: 'Numbered list', detail: 'A numbered list', template: '1. ${Item}' },
  { label: 'Quote', detail: 'A block quote', template: '> ${Quote}' },
  { label: 'Code block', detail: 'Fenced code with a language', template: '```${1:bash}\n${2:code}\n```' },
  { label: 'Table', detail: 'A table with two columns', template: '| ${1:Column} | ${2:Column} |\n| --- | --- |\n| ${3:Cell} | ${4:Cell} |' },
  { label: 'Image', detail: 'An image from the site', template: '![${1:Alt text}](${2:/images/})' },
  { label: 'Divider', detail: 'A horizontal rule', template: '---\n' },
];

const CALLOUTS = new Set(['Note', 'Tip', 'Warning', 'Info', 'Check', 'Danger']);

const slashOptions: Completion[] = [
  ...BLOCKS.map((b): Completion => ({ label: b.label, detail: b.detail, type: 'keyword', section: { name: 'Blocks', rank: 0 }, apply: applySnippet(b.template, 1) })),
  ...COMPONENT_CATALOGUE.filter((e) => CALLOUTS.has(e.name)).map((e) => componentCompletion(e, 1, 'Callouts')),
  ...COMPONENT_CATALOGUE.filter((e) => !CALLOUTS.has(e.name) && !e.name.includes('.')).map((e) => componentCompletion(e, 1, 'Components')),
].map((c) => (typeof c.section === 'string' ? { ...c, section: { name: c.section, rank: c.section === 'Callouts' ? 1 : 2 } } : c));

/** `/` at the start of a line → the slash menu. */
const slashMenu: CompletionSource = (context) => {
  const line = context.state.doc.lineAt(context.pos);
  const before = context.state.sliceDoc(line.from, context.pos);
  const m = /^\s*\/([\w-]*)$/.exec(before);
  if (!m || inCode(context)) return null;
  return { from: context.pos - m[1].length, options: slashOptions, validFor: /^[\w-]*$/ };
};

/** The autocomplete of an MDX page; `path` (the page's repository path) lets `#anchors` use the page's own headings from `links`. */
export function mdxCompletion(api: ExtensionsApi, path?: string): Extension {
  const pages = linkCache(api);
  return autocompletion({
    override: [slashMenu, components, tagSource(pages, path), markdownLinkSource(pages, path)],
    activateOnTyping: true,
    maxRenderedOptions: 200,
  });
}

/** The slash menu's entries and the component options, for tests and a toolbar's insert menu. */
export const completionData = { slashOptions, componentOptions, BLOCKS };
