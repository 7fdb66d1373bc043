import t from 'tap';
import { h } from 'preact';
import { renderToString } from 'preact-render-to-string';
import { components } from '../../src/components/index.ts';
import { COMPONENT_NAMES } from '../../src/components/names.ts';

const { Callout, Warning, Tabs, Tab, CodeGroup, Steps, Step, Card, CardGroup, Accordion, AccordionGroup, Frame, Badge, Update, Visibility } = components;
const html = (node: Parameters<typeof renderToString>[0]) => renderToString(node).replace(/<svg[^]*?<\/svg>/g, '<svg/>');

t.test('components', async (t) => {
  t.test('should export every documented component name', async (t) => {
    t.same(Object.keys(components).sort(), [
      'Accordion', 'AccordionGroup', 'Badge', 'Callout', 'Card', 'CardGroup', 'Check', 'CodeBlock', 'CodeGroup', 'Color', 'Column', 'Columns', 'Danger',
      'Expandable', 'FileTree', 'Frame', 'GitHub', 'Icon', 'Info', 'Link', 'Mermaid', 'Note', 'Panel', 'ParamField', 'PreviewButton', 'Prompt',
      'RequestExample', 'ResponseExample', 'ResponseField', 'Step', 'Steps', 'Tab', 'Tabs', 'Tile', 'Tip', 'Tooltip', 'Tree', 'Update', 'View',
      'Visibility', 'Warning',
    ]);
  });

  t.test('should list every component and sub-component in the names the builder checks', async (t) => {
    const names = Object.entries(components).flatMap(([name, component]) => [
      name, ...Object.keys(component).filter((key) => /^[A-Z]/.test(key)).map((key) => `${name}.${key}`),
    ]);
    t.same([...COMPONENT_NAMES].sort(), names.sort());
  });

  t.test('should take JSX as titles, using its text for ids and labels', async (t) => {
    t.equal(html(h(Step, { title: h('span', null, 'Install ', h('code', null, 'acme')) }, 'x')),
      '<li class="step" id="install-acme"><p class="step-title"><span>Install <code>acme</code></span></p><div class="step-body">x</div></li>');
    t.match(html(h(Tabs, null, h(Tab, { title: h('b', null, 'One') }, 'a'))), /<button [^>]*><b>One<\/b><\/button><\/div><div [^>]*data-label="One"/);
    t.match(html(h(Update, { label: h('b', null, 'v3') }, 'x')), /^<section class="update" id="v3" aria-labelledby="v3-label">.*<a href="#v3"><b>v3<\/b><\/a>/);
  });

  t.test('should give a frame image a dark variant', async (t) => {
    t.equal(html(h(Frame, { src: '/a.png', srcDark: '/a-dark.png', alt: 'Chart', caption: 'Usage' })),
      '<figure class="frame"><div class="frame-body"><img class="img-light" src="/a.png" alt="Chart"/><img class="img-dark" src="/a-dark.png" alt="Chart"/></div><figcaption>Usage</figcaption></figure>');
    t.equal(html(h(Frame, { src: '/a.png' })), '<figure class="frame"><div class="frame-body"><img src="/a.png" alt/></div></figure>');
  });

  t.test('should render callouts as notes with a spoken kind', async (t) => {
    t.equal(html(h(Warning, null, 'Careful')), '<div class="callout" data-kind="warning" role="note"><svg/><div class="callout-body"><span class="sr-only">Warning: </span>Careful</div></div>');
    t.equal(html(h(Callout, { type: 'tip', title: 'Hint' }, 'Go')), '<div class="callout" data-kind="tip" role="note"><svg/><div class="callout-body"><p class="callout-title">Hint</p>Go</div></div>');
  });

  t.test('should render tabs with linked tab and panel ids, panels named as Mintlify names them', async (t) => {
    const out = html(h(Tabs, null, h(Tab, { title: 'npm' }, 'a'), h(Tab, { title: 'pnpm' }, 'b')));
    const id = /id="([^"]+)-t0"/.exec(out)?.[1];
    t.equal(out,
      `<div class="tabs" data-tabs><div class="tab-list" role="tablist">` +
      `<button type="button" role="tab" id="${id}-t0" aria-controls="npm" aria-selected="true" tabindex="0">npm</button>` +
      `<button type="button" role="tab" id="${id}-t1" aria-controls="pnpm" aria-selected="false" tabindex="-1">pnpm</button></div>` +
      `<div class="tab-panel" role="tabpanel" id="npm" aria-labelledby="${id}-t0" data-label="npm" data-selected tabindex="0">a</div>` +
      `<div class="tab-panel" role="tabpanel" id="pnpm" aria-labelledby="${id}-t1" data-label="pnpm" tabindex="0">b</div></div>`);
    const ids = (markup: string) => [...markup.matchAll(/role="tabpanel" id="([^"]+)"/g)].map((m) => m[1]);
    t.same(ids(html(h(Tabs, null, h(Tab, { title: 'OAuth 2.0' }, 'a'), h(Tab, { title: 'API key' }, 'b'), h(Tab, { title: 'API key' }, 'c')))), ['oauth-2-0', 'api-key', 'api-key-2'], 'a repeated title is numbered');
    const untitled = html(h(Tabs, null, h(Tab, { title: '' }, 'a')));
    t.match(untitled, /role="tabpanel" id="[^"]+-p0"/, 'a tab without a title keeps a generated id');
    t.match(html(h(Tab, { title: 'OAuth 2.0' }, 'x')), '<div class="tab-panel" id="oauth-2-0" data-label="OAuth 2.0">x</div>', 'a Tab on its own too');
    t.equal(html(h(CodeGroup, null, 'x')), '<div class="code-group" data-code-group>x</div>');
  });

  t.test('should render steps, cards and accordions', async (t) => {
    t.equal(html(h(Steps, null, h(Step, { title: 'Install it' }, 'x'))), '<ol class="steps"><li class="step" id="install-it"><p class="step-title">Install it</p><div class="step-body">x</div></li></ol>');
    t.equal(html(h(CardGroup, { cols: 3 }, h(Card, { title: 'API', href: '/api', icon: '📘' }, 'Ref'))),
      '<div class="card-group" style="--cols:3"><a class="card" href="/api"><span class="card-icon" aria-hidden="true"><span class="icon" aria-hidden="true">📘</span></span><span class="card-title">API</span><div class="card-body">Ref</div></a></div>');
    t.equal(html(h(AccordionGroup, null, h(Accordion, { title: 'Q', defaultOpen: true }, 'A'))),
      '<div class="accordion-group"><details class="accordion" id="q" open><summary><span class="accordion-title">Q</span></summary><div class="accordion-body">A</div></details></div>');
  });

  t.test('should render frames, badges and updates', async (t) => {
    t.equal(html(h(Frame, { caption: 'Shot' }, 'img')), '<figure class="frame"><div class="frame-body">img</div><figcaption>Shot</figcaption></figure>');
    t.equal(html(h(Badge, { color: 'hotpink' }, 'New')), '<span class="badge" data-color="gray">New</span>');
    t.equal(html(h(Update, { label: 'v2.1 — May', date: '2025-05-01', description: 'Faster', rss: 'Feed text' }, 'Body')),
      '<section class="update" id="v2-1-—-may" aria-labelledby="v2-1-—-may-label"><div class="update-meta"><h2 class="update-label" id="v2-1-—-may-label"><a href="#v2-1-—-may">v2.1 — May</a></h2>' +
      '<time datetime="2025-05-01">2025-05-01</time><p class="update-description">Faster</p></div><div class="update-body">Body</div></section>');
  });

  t.test('should mark audience content the way the builder and CSS expect', async (t) => {
    t.equal(html(h(Visibility, { for: 'agents' }, 'for bots')), '<div data-visibility="agents" style="display:none">for bots</div>');
    t.equal(html(h(Visibility, { for: 'humans' }, 'for people')), '<div data-visibility="humans">for people</div>');
  });
});
