/**
 * Code fences for generated pages: languages in the proportions of a real public MDX docs corpus
 * (json, mdx, bash, no language, text, yaml, html, jsx, js, markdown, mermaid, css, toml, xml,
 * graphql, http, then tags shiki does not know), code of varied length, and the meta forms
 * authors write (file names, quoted titles, line ranges, `lines`, `wrap`, `expandable`).
 */
import type { Random } from './random.ts';

/** Fence tags by relative frequency; `''` is a fence without a language. */
export const FENCE_LANGUAGES = {
  json: 18, mdx: 15, bash: 13, '': 10, text: 8, yaml: 7, html: 5, jsx: 4.5, js: 4, markdown: 3.5,
  mermaid: 2.5, css: 2, toml: 1.5, xml: 1.2, graphql: 1, http: 0.9,
  // Tags shiki has no grammar for: highlighted as plain text, badged as written.
  output: 0.6, env: 0.4, prompt: 0.3, curl: 0.2,
} as const;

export type FenceLanguage = keyof typeof FENCE_LANGUAGES;

const WORDS = ['project', 'deploy', 'token', 'webhook', 'domain', 'branch', 'preview', 'search', 'analytics', 'member', 'invoice', 'event', 'theme', 'redirect', 'snippet'];
const FILES: Partial<Record<FenceLanguage, string[]>> = {
  json: ['docs.json', 'package.json', 'response.json', 'openapi.json'],
  mdx: ['index.mdx', 'quickstart.mdx', 'snippets/note.mdx'],
  yaml: ['.github/workflows/docs.yml', 'config.yaml', 'openapi.yaml'],
  js: ['index.js', 'client.js', 'webhook.js'],
  jsx: ['App.jsx', 'Widget.jsx'],
  css: ['custom.css', 'style.css'],
  toml: ['netlify.toml', 'Cargo.toml'],
  html: ['index.html', 'embed.html'],
};

const word = (r: Random) => r.pick(WORDS);
const repeat = (n: number, line: (k: number) => string) => Array.from({ length: n }, (_, k) => line(k));

/** Code lines for `lang`, about `n` lines long. */
function codeLines(lang: FenceLanguage, n: number, r: Random): string[] {
  const w = word(r);
  switch (lang) {
    case 'json':
      return ['{', `  "id": "${w}_${r.int(100, 999)}",`, ...repeat(Math.max(1, n - 3), (k) => `  "${WORDS[(k + n) % WORDS.length]}${k}": ${k % 3 === 0 ? `"${word(r)}"` : k % 3 === 1 ? r.int(0, 5000) : r.chance(0.5)},`), `  "object": "${w}"`, '}'];
    case 'mdx':
      return ['---', `title: "${w} settings"`, '---', '', ...repeat(Math.max(1, n - 4), (k) => (k % 4 === 0 ? `<Card title="${word(r)}" icon="bolt" href="/${word(r)}">` : k % 4 === 1 ? `  Configure the ${word(r)} for every ${word(r)}.` : k % 4 === 2 ? '</Card>' : ''))];
    case 'bash':
      return repeat(n, (k) => (k % 3 === 0 ? `npm install @acme/${word(r)}` : k % 3 === 1 ? `curl -X POST https://api.acme.example/v1/${word(r)}s -H "Authorization: Bearer $TOKEN"` : `acme ${word(r)} ${r.pick(['list', 'create', 'delete', 'sync'])} --${word(r)} ${r.int(1, 99)}`));
    case '':
    case 'text':
    case 'output':
    case 'prompt':
      return repeat(n, (k) => `${k === 0 ? '$ acme status' : `${word(r)}: ${r.pick(['ok', 'pending', 'failed', 'ready'])} (${r.int(1, 900)} ms)`}`);
    case 'env':
      return repeat(n, () => `ACME_${word(r).toUpperCase()}_${r.pick(['URL', 'KEY', 'ID', 'MODE'])}=${word(r)}-${r.int(1000, 9999)}`);
    case 'curl':
      return [`curl https://api.acme.example/v1/${w}s \\`, ...repeat(Math.max(1, n - 1), (k) => `  -d ${word(r)}=${r.int(1, 99)}${k < n - 2 ? ' \\' : ''}`)];
    case 'yaml':
      return [`${w}:`, ...repeat(Math.max(1, n - 1), (k) => (k % 3 === 0 ? `  ${word(r)}:` : `    ${word(r)}: ${r.pick(['true', 'false', `"${word(r)}"`, String(r.int(1, 100))])}`))];
    case 'html':
      return [`<div class="${w}">`, ...repeat(Math.max(1, n - 2), () => `  <p data-${word(r)}="${r.int(1, 9)}">The ${word(r)} is ready.</p>`), '</div>'];
    case 'jsx':
      return [`export function ${w[0].toUpperCase()}${w.slice(1)}Panel({ ${word(r)} }) {`, '  return (', '    <section>', ...repeat(Math.max(1, n - 6), () => `      <Item name="${word(r)}" count={${r.int(1, 50)}} />`), '    </section>', '  );', '}'];
    case 'js':
      return [`import { Acme } from '@acme/sdk';`, '', `const acme = new Acme({ token: process.env.ACME_TOKEN });`, ...repeat(Math.max(1, n - 3), () => `const ${word(r)}${r.int(1, 9)} = await acme.${word(r)}s.${r.pick(['list', 'get', 'create'])}({ limit: ${r.int(1, 100)} });`)];
    case 'markdown':
      return [`# ${w}`, '', ...repeat(Math.max(1, n - 2), (k) => (k % 3 === 0 ? `## ${word(r)}` : `- Set the **${word(r)}** before the ${word(r)}.`))];
    case 'mermaid':
      return ['flowchart LR', ...repeat(Math.max(1, n - 1), (k) => `  ${WORDS[k % WORDS.length]}[${word(r)}] --> ${WORDS[(k + 1) % WORDS.length]}[${word(r)}]`)];
    case 'css':
      return [`.${w} {`, ...repeat(Math.max(1, n - 2), () => `  --acme-${word(r)}: #${r.int(0x100000, 0xffffff).toString(16)};`), '}'];
    case 'toml':
      return [`[${w}]`, ...repeat(Math.max(1, n - 1), () => `${word(r)} = "${word(r)}-${r.int(1, 99)}"`)];
    case 'xml':
      return ['<?xml version="1.0"?>', `<${w}s>`, ...repeat(Math.max(1, n - 3), () => `  <${w} id="${r.int(1, 999)}">${word(r)}</${w}>`), `</${w}s>`];
    case 'graphql':
      return [`query ${w[0].toUpperCase()}${w.slice(1)}s($first: Int) {`, `  ${w}s(first: $first) {`, ...repeat(Math.max(1, n - 4), () => `    ${word(r)}`), '  }', '}'];
    case 'http':
      return [`GET /v1/${w}s?limit=${r.int(1, 100)} HTTP/1.1`, 'Host: api.acme.example', ...repeat(Math.max(1, n - 2), () => `X-Acme-${word(r)}: ${r.int(1, 999)}`)];
  }
}

/** The meta after the tag: often nothing, else the forms authors write. */
function fenceMeta(lang: FenceLanguage, lines: number, r: Random): string {
  const parts: string[] = [];
  const file = FILES[lang];
  const roll = r.next();
  if (roll < 0.2 && file) parts.push(r.pick(file));
  else if (roll < 0.3) parts.push(`title="${r.pick(['Example', 'Response', 'Terminal', 'Request body'])} ${word(r)}"`);
  if (r.chance(0.1)) parts.push(r.chance(0.5) ? `{1,${Math.min(lines, 3)}}` : `highlight={${Math.min(lines, 2)}-${Math.min(lines, 4)}}`);
  if (r.chance(0.06)) parts.push('lines');
  if (r.chance(0.04)) parts.push('wrap');
  if (lines >= 16 && r.chance(0.3)) parts.push('expandable');
  return parts.length ? ` ${parts.join(' ')}` : '';
}

/** One fenced code block (several languages, lengths and meta forms). */
export function codeFence(r: Random, lang: FenceLanguage = r.weighted(FENCE_LANGUAGES)): string {
  // Mostly short blocks, now and then a long one.
  const n = Math.max(2, Math.min(60, Math.round(r.logNormal(7, 18))));
  const lines = codeLines(lang, n, r);
  // Without a tag there is no meta: its first word would be read as the tag.
  const meta = lang === '' ? '' : fenceMeta(lang, lines.length, r);
  return `\`\`\`${lang}${meta}\n${lines.join('\n')}\n\`\`\``;
}
