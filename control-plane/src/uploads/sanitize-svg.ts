/**
 * SVG uploads are served from the site's own origin, where an SVG opened directly is a document
 * that can run script or load whatever it names. Every uploaded SVG is therefore parsed as XML and
 * rebuilt from an allow-list: DOMPurify's SVG profile over a jsdom document for the markup, and
 * Folio's rules on top: links and references (`href`, `xlink:href`, `src`) only to fragments of
 * the same document (plus inline raster images on `<image>`), and CSS (`<style>`, `style`
 * attributes, presentation attributes such as `fill`) through the CSS allow-list of
 * sanitize-css.ts, which keeps `url(#id)` and drops every other `url()`, `@import` and the like.
 * The site server adds a Content-Security-Policy that blocks anything left (site-server.ts).
 */
import createDOMPurify, { type Config } from 'dompurify';
import { JSDOM } from 'jsdom';
import { isSafeCssValue, sanitizeDeclarations, sanitizeStylesheet } from './sanitize-css.ts';

const SVG_NS = 'http://www.w3.org/2000/svg';
/** Raster images may be inlined in an SVG; any other `data:` URL (HTML, nested SVG) may not. */
const RASTER_DATA_URL = /^data:image\/(?:png|jpeg|gif|webp);base64,[A-Za-z0-9+/=]*$/i;
/** Attributes that make a browser fetch or navigate (in any namespace: `xlink:href`). */
const REFERENCE = /^(?:(?:[\w-]+:)?href|src)$/i;

/** One window for the process: creating a jsdom window costs tens of milliseconds. */
let shared: { window: JSDOM['window']; purify: ReturnType<typeof createDOMPurify> } | undefined;

/** Whether a reference may stay: a same-document fragment, or an inline raster image on `<image>`. */
function keepReference(element: string, raw: string): boolean {
  // Browsers ignore ASCII whitespace and control characters inside a URL scheme ("java\tscript:").
  // eslint-disable-next-line no-control-regex -- stripping exactly those characters is the point.
  const value = raw.replace(/[\u0000-\u0020]/g, '');
  return value.startsWith('#') || (element === 'image' && RASTER_DATA_URL.test(value));
}

function engine() {
  if (shared) return shared;
  const { window } = new JSDOM('');
  const purify = createDOMPurify(window as unknown as Parameters<typeof createDOMPurify>[0]);
  purify.addHook('uponSanitizeAttribute', (node, data) => {
    const element = node.nodeName.toLowerCase();
    if (REFERENCE.test(data.attrName)) {
      data.keepAttr = keepReference(element, data.attrValue);
    } else if (data.attrName.toLowerCase() === 'style') {
      data.attrValue = sanitizeDeclarations(data.attrValue);
      data.keepAttr = data.attrValue.trim() !== '';
    } else if (data.attrValue.includes('(') && !isSafeCssValue(data.attrValue)) {
      // A presentation attribute is CSS: fill="url(https://…)" fetches like background-image does.
      data.keepAttr = false;
    }
  });
  shared = { window, purify };
  return shared;
}

const CONFIG: Config & { IN_PLACE: true } = {
  IN_PLACE: true,
  USE_PROFILES: { svg: true, svgFilters: true },
  // <use> is off in DOMPurify's profile; with the same-document rule above it is safe and
  // logos rely on it. <foreignObject>, <script>, <animate>/<set> stay forbidden.
  ADD_TAGS: ['use'],
  FORBID_TAGS: ['foreignObject', 'foreignobject', 'script', 'animate', 'set'],
  // Removed elements take their content with them (a stray <html:script> leaves no text behind).
  KEEP_CONTENT: false,
};

/** Predefined XML entities and character references survive; every other reference is dropped. */
const FOREIGN_ENTITY = /&(?!(?:amp|lt|gt|quot|apos|#[0-9]+|#x[0-9a-fA-F]+);)[A-Za-z_:][\w.:-]*;/g;

/**
 * Removes a DOCTYPE declaration with its internal subset, tracking quotes, comments and
 * brackets so a `]>` inside an entity value does not end it early. Declared entities are the door to
 * billion-laughs and quadratic blow-up attacks and to external entities; no logo needs them.
 */
function stripDoctype(text: string): string {
  const start = text.search(/<!DOCTYPE/i);
  if (start < 0) return text;
  let quote = '';
  let depth = 0;
  for (let i = start + 9; i < text.length; i++) {
    const c = text[i];
    if (quote) { if (c === quote) quote = ''; continue; }
    if (text.startsWith('<!--', i)) {
      // A comment may hold a lone quote or bracket; it ends at the first "-->".
      const end = text.indexOf('-->', i + 4);
      if (end < 0) return text.slice(0, start);
      i = end + 2;
      continue;
    }
    if (c === '"' || c === '\'') quote = c;
    else if (c === '[') depth++;
    else if (c === ']') depth--;
    else if (c === '>' && depth <= 0) return text.slice(0, start) + stripDoctype(text.slice(i + 1));
  }
  return text.slice(0, start);
}

function parse(text: string) {
  const { window } = engine();
  const doc = new window.DOMParser().parseFromString(text, 'image/svg+xml');
  if (doc.getElementsByTagName('parsererror').length > 0 || doc.doctype) return undefined;
  return doc;
}

/**
 * Decides whether `bytes` are an SVG document and returns a sanitised copy, or `undefined`
 * when they are not: not UTF-8, not well-formed XML, or a root element other than `<svg>`.
 * The result is the root element re-serialised after sanitising: no XML declaration, no
 * processing instructions, no comments, no DOCTYPE or entity declarations, no `<script>`,
 * no `on*` handlers, no `<foreignObject>`, no animation of attributes, no references other than
 * `#fragment`s (and inline PNG/JPEG/GIF/WebP on `<image>`), no CSS that loads anything.
 * An `<svg>` written without its namespace (common in markup meant for inline HTML) gets it.
 */
export function sanitizeSvg(bytes: Uint8Array): Buffer | undefined {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return undefined;
  }
  if (!/<svg[\s>/]/.test(text)) return undefined;
  text = stripDoctype(text).replace(FOREIGN_ENTITY, '');
  let doc = parse(text);
  if (doc && doc.documentElement.localName === 'svg' && doc.documentElement.namespaceURI === null) {
    doc = parse(text.replace(/<svg(?=[\s>/])/, `<svg xmlns="${SVG_NS}"`));
  }
  const root = doc?.documentElement;
  if (!doc || !root || root.localName !== 'svg' || root.namespaceURI !== SVG_NS) return undefined;
  const { window, purify } = engine();
  // CDATA sections are plain text to an XML parser; as text nodes they keep their content (a
  // <style> wrapped in CDATA, as editors write it) where DOMPurify would drop the section.
  const walker = doc.createTreeWalker(root, window.NodeFilter.SHOW_CDATA_SECTION);
  const sections: Node[] = [];
  while (walker.nextNode()) sections.push(walker.currentNode);
  for (const section of sections) section.parentNode?.replaceChild(doc.createTextNode(section.nodeValue ?? ''), section);
  try {
    purify.sanitize(root, CONFIG);
  } catch {
    return undefined;
  }
  for (const style of [...root.getElementsByTagNameNS(SVG_NS, 'style')]) {
    const css = sanitizeStylesheet(style.textContent ?? '');
    if (css.trim() === '') style.remove();
    else if (css !== style.textContent) style.textContent = css;
  }
  return Buffer.from(new window.XMLSerializer().serializeToString(root), 'utf8');
}

