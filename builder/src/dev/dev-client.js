/* global document, location, window, EventSource, DOMParser, CustomEvent */
// The dev server's browser script (served at /_folio/dev/client.js and added to every HTML
// page it serves; never part of a published site). It listens to the server's events:
// - `update`: when the open page's object changed, fetch it and swap the parts that differ
//   (sidebar, content, table of contents), keeping the scroll position; else nothing;
// - `reload`: reload the page (docs.json or the template's assets changed);
// - `problems`: show an overlay with each problem's file:line:column and message, over the
//   last good page; an empty list hides it.
// Plain JavaScript so the server can hand it out as it is, without a build step.

// The path the site is served under (`''` for `npm run dev`; a preview served below a prefix
// loads this script from `<prefix>/_folio/dev/client.js`), so events and page keys follow it.
const BASE = new URL(import.meta.url).pathname.replace(/\/_folio\/dev\/client\.js$/, '');
const EVENTS = `${BASE}/_folio/dev/events`;

/** The object key the server serves this page from (the builder's clean-URL layout). */
function pageKey() {
  let full = decodeURIComponent(location.pathname);
  if (BASE && full.startsWith(BASE)) full = full.slice(BASE.length);
  const path = full.replace(/^\/+|\/+$/g, '');
  return path === '' ? 'index.html' : `${path}/index.html`;
}

let swapping = Promise.resolve();

/** Fetches the page again and replaces the layout's children that changed. */
async function swap() {
  const res = await fetch(location.pathname, { cache: 'no-store' });
  if (!res.ok) return;
  const next = new DOMParser().parseFromString(await res.text(), 'text/html');
  const layout = document.querySelector('.layout');
  const fresh = next.querySelector('.layout');
  if (!layout || !fresh) { location.reload(); return; }
  document.title = next.title;
  // Stylesheets the new version links that this one lacks (a page made before the first build
  // links only its own utilities): added, never removed, so nothing unstyles meanwhile.
  const linked = new Set([...document.querySelectorAll('link[rel="stylesheet"]')].map((l) => l.getAttribute('href')));
  for (const link of next.querySelectorAll('head link[rel="stylesheet"]')) {
    if (!linked.has(link.getAttribute('href'))) document.head.append(document.adoptNode(link));
  }
  const now = [...layout.children];
  const then = [...fresh.children];
  if (now.length !== then.length) { layout.replaceWith(document.adoptNode(fresh)); }
  else {
    now.forEach((el, i) => { if (el.outerHTML !== then[i].outerHTML) el.replaceWith(document.adoptNode(then[i])); });
  }
  document.dispatchEvent(new CustomEvent('folio:content'));
  document.documentElement.setAttribute('data-dev-swapped', String(Date.now()));
}

function overlay() {
  let host = document.getElementById('folio-dev-overlay');
  if (host) return host;
  host = document.createElement('div');
  host.id = 'folio-dev-overlay';
  host.setAttribute('role', 'alertdialog');
  host.setAttribute('aria-label', 'Build problems');
  Object.assign(host.style, {
    position: 'fixed', left: '1rem', right: '1rem', bottom: '1rem', zIndex: '2147483647', maxHeight: '50vh', overflow: 'auto',
    background: '#1f1315', color: '#ffe4e6', border: '2px solid #f43f5e', borderRadius: '8px', padding: '1rem 1.25rem',
    font: '14px/1.5 ui-monospace, SFMono-Regular, Menlo, monospace', boxShadow: '0 10px 30px rgba(0,0,0,.4)',
  });
  document.body.append(host);
  return host;
}

function showProblems(problems) {
  const existing = document.getElementById('folio-dev-overlay');
  if (problems.length === 0) { existing?.remove(); return; }
  const host = overlay();
  host.replaceChildren();
  const title = document.createElement('strong');
  title.textContent = problems.length === 1 ? 'Build problem (the last good version is shown)' : `${problems.length} build problems (the last good versions are shown)`;
  host.append(title);
  for (const p of problems) {
    const item = document.createElement('pre');
    item.className = 'folio-dev-problem';
    item.style.whiteSpace = 'pre-wrap';
    item.style.margin = '.75rem 0 0';
    const where = [p.file, p.line, p.column].filter((v) => v !== undefined && v !== null).join(':');
    item.textContent = where ? `${where}\n${p.message}` : p.message;
    host.append(item);
  }
}

// A page the server made before its first build (`client.js?early`) asks to be told once the
// built version exists, so it is swapped in even if that build finished before this connected.
const early = new URL(import.meta.url).searchParams.has('early');
const source = new EventSource(early ? `${EVENTS}?early=${encodeURIComponent(pageKey())}` : EVENTS);
source.addEventListener('update', (e) => {
  const { keys } = JSON.parse(e.data);
  if (!keys.includes(pageKey())) return;
  swapping = swapping.then(swap).catch((err) => console.error('folio dev: could not update the page', err));
});
source.addEventListener('reload', () => location.reload());
source.addEventListener('problems', (e) => showProblems(JSON.parse(e.data).problems));
window.addEventListener('beforeunload', () => source.close());
