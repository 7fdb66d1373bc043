/** @jsxRuntime automatic @jsxImportSource preact */
/**
 * Descriptions of an API document (OpenAPI and AsyncAPI `description` fields are CommonMark, and
 * Mintlify renders them so): paragraphs (blank lines between them), bullet and numbered lists,
 * `code`, **bold**, *emphasis* and [links](https://…). Built as elements, never as HTML, so a
 * document cannot put markup in the page; a link goes only to an http(s) URL, a site path or an
 * anchor, else its text is shown. Anything else reads as the text it is.
 */
import type { ComponentChildren } from 'preact';

const LIST_ITEM = /^\s*(?:([-*+])|(\d+)[.)])\s+(.*)$/;
const INLINE = /`([^`]+)`|\*\*(.+?)\*\*|__(.+?)__|\*([^*\s](?:[^*]*[^*\s])?)\*|\[([^\]]+)\]\(([^)\s]+)\)/g;
const SAFE_HREF = /^(?:https?:\/\/|\/(?!\/)|#)/i;

/** The inline content of a line of description text. */
function inline(text: string): ComponentChildren[] {
  const out: ComponentChildren[] = [];
  let last = 0;
  for (const m of text.matchAll(INLINE)) {
    if (m.index > last) out.push(text.slice(last, m.index));
    const [, code, strong, strong2, em, label, href] = m;
    if (code !== undefined) out.push(<code>{code}</code>);
    else if (strong !== undefined || strong2 !== undefined) out.push(<strong>{inline(strong ?? strong2)}</strong>);
    else if (em !== undefined) out.push(<em>{inline(em)}</em>);
    else out.push(SAFE_HREF.test(href) ? <a href={href}>{inline(label)}</a> : label);
    last = m.index + m[0].length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

/** One block (the text between blank lines): a paragraph, lists, or a paragraph followed by a list. */
function block(text: string): ComponentChildren[] {
  const out: ComponentChildren[] = [];
  let lines: string[] = [];
  let items: { ordered: boolean; text: string }[] = [];
  const flushParagraph = () => {
    if (lines.length) out.push(<p>{inline(lines.join('\n').trim())}</p>);
    lines = [];
  };
  const flushList = () => {
    if (!items.length) return;
    const entries = items.map((i) => <li>{inline(i.text.trim())}</li>);
    out.push(items[0].ordered ? <ol>{entries}</ol> : <ul>{entries}</ul>);
    items = [];
  };
  for (const line of text.split('\n')) {
    const item = LIST_ITEM.exec(line);
    if (item) {
      flushParagraph();
      items.push({ ordered: item[2] !== undefined, text: item[3] });
    } else if (items.length && /^\s+\S/.test(line)) items[items.length - 1].text += ` ${line.trim()}`;
    else {
      flushList();
      lines.push(line);
    }
  }
  flushParagraph();
  flushList();
  return out;
}

/** A description as paragraphs and lists (see the module comment). */
export function Text({ text }: { text?: string }) {
  if (!text) return null;
  return <>{text.split(/\n\s*\n/).filter((b) => b.trim() !== '').flatMap(block)}</>;
}
