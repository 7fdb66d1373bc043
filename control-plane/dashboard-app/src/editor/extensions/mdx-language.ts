/**
 * MDX as CodeMirror sees it: Markdown with GFM (`@codemirror/lang-markdown`), whose HTML blocks
 * and inline tags are parsed as JSX (`@codemirror/lang-javascript`), plus three constructs MDX
 * adds that Markdown does not know: YAML frontmatter at the top, `import`/`export` lines (ESM,
 * parsed as JavaScript) and `{…}` expressions in text. Fenced code is highlighted by its
 * language where one is bundled. Frontmatter, headings and multi-line JSX elements fold.
 */
import { markdown, markdownLanguage } from '@codemirror/lang-markdown';
import { javascript, jsxLanguage, tsxLanguage, typescriptLanguage, javascriptLanguage } from '@codemirror/lang-javascript';
import { jsonLanguage } from '@codemirror/lang-json';
import { cssLanguage } from '@codemirror/lang-css';
import { htmlLanguage } from '@codemirror/lang-html';
import { foldNodeProp, foldService, type Language } from '@codemirror/language';
import type { Extension } from '@codemirror/state';
import { styleTags, tags as t } from '@lezer/highlight';
import { parseMixed } from '@lezer/common';
import type { BlockContext, Line, MarkdownConfig, InlineContext, Element } from '@lezer/markdown';

/** Code fence languages bundled with the editor, by the names pages write after the fence. */
const CODE_LANGUAGES: Record<string, Language> = {
  js: javascriptLanguage, javascript: javascriptLanguage, mjs: javascriptLanguage, cjs: javascriptLanguage,
  jsx: jsxLanguage, ts: typescriptLanguage, typescript: typescriptLanguage, tsx: tsxLanguage,
  json: jsonLanguage, jsonc: jsonLanguage, json5: jsonLanguage,
  css: cssLanguage, html: htmlLanguage, xml: htmlLanguage, svg: htmlLanguage,
};

/** The language of a fence's info string (`ts title="x.ts"` → TypeScript), or null. */
export function codeLanguage(info: string): Language | null {
  return CODE_LANGUAGES[info.trim().split(/[\s{]/)[0].toLowerCase()] ?? null;
}

/** One YAML line of frontmatter as highlighted elements: key, string or literal value, comment. */
function yamlLine(cx: BlockContext, text: string, at: number): Element[] {
  const out: Element[] = [];
  const comment = /(^|\s)#.*$/.exec(text);
  const body = comment ? text.slice(0, comment.index + comment[1].length) : text;
  const key = /^(\s*(?:-\s+)?)([^\s:#][^:#]*?)(\s*:)(?=\s|$)/.exec(body);
  if (key) out.push(cx.elt('FrontmatterKey', at + key[1].length, at + key[1].length + key[2].length));
  const rest = key ? key[0].length : /^\s*(?:-\s+)?/.exec(body)![0].length;
  const value = body.slice(rest);
  const start = at + rest + (value.length - value.trimStart().length);
  const v = value.trim();
  if (v) out.push(cx.elt(/^(?:true|false|null|~|-?\d+(?:\.\d+)?)$/.test(v) ? 'FrontmatterLiteral' : 'FrontmatterString', start, start + v.length));
  if (comment) out.push(cx.elt('FrontmatterComment', at + comment.index + comment[1].length, at + text.length));
  return out;
}

/** `---` on the first line up to the next `---` (or `...`): the page's YAML frontmatter. */
const frontmatter: MarkdownConfig = {
  defineNodes: ['Frontmatter', 'FrontmatterMark', 'FrontmatterKey', 'FrontmatterString', 'FrontmatterLiteral', 'FrontmatterComment'],
  props: [
    styleTags({
      FrontmatterMark: t.meta, FrontmatterKey: t.definition(t.propertyName), FrontmatterString: t.string,
      FrontmatterLiteral: t.literal, FrontmatterComment: t.lineComment,
    }),
    foldNodeProp.add({ Frontmatter: (node) => ({ from: node.from + 3, to: node.lastChild && node.lastChild.from > node.from ? node.lastChild.from - 1 : node.to }) }),
  ],
  parseBlock: [{
    name: 'Frontmatter',
    before: 'HorizontalRule',
    parse(cx: BlockContext, line: Line) {
      if (cx.lineStart !== 0 || !/^---\s*$/.test(line.text)) return false;
      const children: Element[] = [cx.elt('FrontmatterMark', 0, 3)];
      let end = line.text.length;
      while (cx.nextLine()) {
        if (/^(?:---|\.\.\.)\s*$/.test(line.text)) {
          children.push(cx.elt('FrontmatterMark', cx.lineStart, cx.lineStart + 3));
          end = cx.lineStart + line.text.length;
          cx.nextLine();
          break;
        }
        children.push(...yamlLine(cx, line.text, cx.lineStart));
        end = cx.lineStart + line.text.length;
      }
      cx.addElement(cx.elt('Frontmatter', 0, end, children));
      return true;
    },
  }],
};

/** `import`/`export` lines (and the lines that continue them up to a blank line): MDX's ESM. */
const esm: MarkdownConfig = {
  defineNodes: ['Esm'],
  parseBlock: [{
    name: 'Esm',
    before: 'HTMLBlock',
    parse(cx: BlockContext, line: Line) {
      if (line.indent !== 0 || !/^(?:import|export)\s/.test(line.text)) return false;
      const from = cx.lineStart;
      let end = from + line.text.length;
      while (cx.nextLine() && line.text.trim() !== '') end = cx.lineStart + line.text.length;
      cx.addElement(cx.elt('Esm', from, end));
      return true;
    },
  }],
};

/** `{…}` in text: a JavaScript expression (balanced braces, strings skipped). */
const expressions: MarkdownConfig = {
  defineNodes: ['JsxExpression'],
  parseInline: [{
    name: 'JsxExpression',
    parse(cx: InlineContext, next: number, pos: number) {
      if (next !== 123 /* { */) return -1;
      let depth = 0;
      let quote = '';
      for (let i = pos; i < cx.end; i++) {
        const ch = cx.char(i);
        const c = String.fromCharCode(ch);
        if (quote) {
          if (c === '\\') i++;
          else if (c === quote) quote = '';
        } else if (c === '"' || c === '\'' || c === '`') quote = c;
        else if (c === '{') depth++;
        else if (c === '}' && --depth === 0) return cx.addElement(cx.elt('JsxExpression', pos, i + 1));
      }
      return -1;
    },
  }],
};

/** JavaScript (with JSX) inside the ESM and expression nodes. */
const embeddedScript: MarkdownConfig = {
  wrap: parseMixed((node) => {
    if (node.type.name === 'Esm') return { parser: jsxLanguage.parser };
    if (node.type.name === 'JsxExpression') return { parser: jsxLanguage.parser };
    return null;
  }),
};

/**
 * Folds a multi-line JSX element: a line opening `<Name …>` (not closed on that line) folds to
 * the line of its matching `</Name>`, counting nested elements of the same name. Markdown parses
 * such an element as several HTML blocks (a blank line ends one), so this reads the lines.
 */
export const jsxElementFolding = foldService.of((state, lineStart, lineEnd) => {
  const first = state.doc.lineAt(lineStart);
  const open = /^\s*<([A-Z][\w.]*)(?=[\s>/]|$)/.exec(first.text);
  if (!open) return null;
  const name = open[1].replace(/\./g, '\\.');
  // Start and end tags of this name; attribute values may hold `>` inside quotes or braces.
  const tags = new RegExp(`<(/?)${name}(?=[\\s>/])(?:"[^"]*"|'[^']*'|\\{[^}]*\\}|[^>"'{])*?(/?)>`, 'g');
  const text = state.sliceDoc(first.from + open.index, Math.min(state.doc.length, first.from + 200_000));
  let depth = 0;
  for (const m of text.matchAll(tags)) {
    if (m[2] === '/') {
      if (depth === 0) return null;
      continue;
    }
    depth += m[1] === '/' ? -1 : 1;
    if (depth === 0) {
      const close = state.doc.lineAt(first.from + open.index + m.index!);
      return close.number > first.number + 1 ? { from: lineEnd, to: close.from - 1 } : null;
    }
  }
  return null;
});

/** MDX language support: Markdown + GFM, JSX tags, frontmatter, ESM, expressions, code fences. */
export function mdxLanguage(): Extension {
  return [
    markdown({
      base: markdownLanguage,
      codeLanguages: codeLanguage,
      extensions: [frontmatter, esm, expressions, embeddedScript],
      htmlTagLanguage: javascript({ jsx: true }),
      completeHTMLTags: false,
      addKeymap: true,
    }),
    jsxElementFolding,
  ];
}
