/**
 * The configuration parser against 10,000 malformed `docs.json` files, generated from a seed so
 * every run checks the same files: wrong types at every key, `$ref`s (missing, escaping,
 * cyclic, huge), huge arrays, deep nesting, broken JSON. Each must parse or fail with one-line
 * `invalid_config` errors; none may crash. A handful go through the CLI for exit code 1.
 */
import t from 'tap';
import { main } from '../../src/cli.ts';
import { CONFIG_FILE, loadConfig, MAX_CONFIG_ERRORS } from '../../src/config/parse-config.ts';
import { BuilderError } from '../../src/errors.ts';
import { makeRepo, tempDir } from '../helpers/git-repo.ts';

const SEED = 0x5eed19;
const FILES = 10_000;

/** mulberry32: a small, well-distributed PRNG; the same seed gives the same files. */
function prng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let r = Math.imul(a ^ (a >>> 15), 1 | a);
    r = (r + Math.imul(r ^ (r >>> 7), 61 | r)) ^ r;
    return ((r ^ (r >>> 14)) >>> 0) / 4294967296;
  };
}

/** A valid configuration using every section, Mintlify's names and navigation form included. */
const BASE = {
  name: 'Acme', theme: 'mint', contentRoot: './', appearance: { default: 'dark', strict: false },
  colors: { primary: '#0a84ff', logo: { light: '/l.svg', dark: '/d.svg', href: '/' } },
  logo: { light: '/l.svg', dark: '/d.svg' }, favicon: '/f.svg', background: { color: { light: '#ffffff' } },
  typography: { fontFamily: 'Inter' }, fonts: { family: 'Inter' },
  navbar: { links: [{ label: 'Blog', href: '/blog' }], primary: { type: 'button', label: 'Go', href: '/go' }, controls: { order: ['language'] } },
  footer: { socials: { x: 'https://x.com/a' }, links: [{ header: 'Co', items: [{ label: 'A', href: '/a' }] }] },
  legal: { copyright: '© {year}' }, seo: { indexing: 'noindex', metatags: { a: 'b' } },
  redirects: [{ source: '/a', destination: '/b' }], api: { openapi: 'o.yaml' }, ai: { assistant: { trigger: 'none' } },
  icons: { library: 'lucide' }, banner: { content: 'Hi' }, contextual: { options: [] }, integrations: { ga4: {} },
  navigation: {
    global: { anchors: [{ anchor: 'S', href: 'https://s.example' }] },
    languages: [{ language: 'en', tabs: [{ tab: 'G', groups: [{ group: 'Start', pages: ['index', { group: 'Deep', pages: ['a'] }] }] }] }],
  },
};

/** Files `$ref` may name: fine, broken, cyclic, huge. */
const REPO: Record<string, string> = {
  'nav.json': JSON.stringify({ tabs: [{ tab: 'T', pages: ['index'] }] }),
  'redirects.json': JSON.stringify([{ source: '/x', destination: '/y' }]),
  'broken.json': '{ "a": ',
  'cycle-a.json': JSON.stringify({ $ref: 'cycle-b.json' }),
  'cycle-b.json': JSON.stringify({ x: { $ref: 'cycle-a.json' } }),
  'huge.json': JSON.stringify(Array.from({ length: 5000 }, (_, i) => `page-${i}`)),
  'deep.json': '['.repeat(80) + ']'.repeat(80),
};
const read = async (p: string) => REPO[p];

type Json = unknown;

function generator(random: () => number) {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)];
  const deep = (n: number): Json => { let v: Json = 'x'; for (let i = 0; i < n; i++) v = random() < 0.5 ? [v] : { k: v }; return v; };
  const refs = ['nav.json', 'redirects.json', 'broken.json', 'cycle-a.json', 'huge.json', 'deep.json', 'missing.json', '../up.json', '/abs.json', 'https://x.example/a.json', '#/x', 7, null, ''];
  const wrong = (): Json => pick<() => Json>([
    () => 42, () => -1.5, () => true, () => null, () => '', () => 'text', () => '#zzz', () => [], () => ({}), () => [1, 'a', null, {}],
    () => ({ $ref: pick(refs) }), () => ({ $ref: pick(refs), extra: 1 }),
    () => Array.from({ length: 1 + Math.floor(random() * 300) }, (_, i) => (random() < 0.5 ? i : { group: i })),
    () => deep(10 + Math.floor(random() * 120)), () => 'x'.repeat(Math.floor(random() * 2000)), () => ({ __proto__: 1, constructor: 2 }),
  ])();
  /** Every path to a value of `value`, containers included. */
  const paths = (value: Json, at: (string | number)[] = [], out: (string | number)[][] = []) => {
    out.push(at);
    if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) paths(v, [...at, Array.isArray(value) ? Number(k) : k], out);
    return out;
  };
  const set = (root: Json, at: (string | number)[], v: Json): Json => {
    if (!at.length) return v;
    const parent = at.slice(0, -1).reduce<Json>((node, k) => (node as Record<string | number, Json>)[k], root) as Record<string | number, Json>;
    const key = at[at.length - 1];
    if (v === undefined) { if (Array.isArray(parent)) parent.splice(Number(key), 1); else delete parent[key]; } else parent[key] = v;
    return root;
  };
  /** One malformed file's text. */
  return (): string => {
    let doc: Json = structuredClone(BASE);
    const mutations = 1 + Math.floor(random() * 4);
    for (let m = 0; m < mutations; m++) {
      const at = pick(paths(doc));
      const r = random();
      if (r < 0.7) doc = set(doc, at, wrong());
      else if (r < 0.85 && at.length) doc = set(doc, at, undefined);
      else if (doc && typeof doc === 'object' && !Array.isArray(doc)) (doc as Record<string, Json>)[pick(['$ref', 'navigation', 'x-unknown', 'theme'])] = wrong();
    }
    const text = JSON.stringify(doc) ?? 'null';
    // One file in ten is not even valid JSON.
    return random() < 0.1 ? text.slice(0, Math.floor(random() * text.length)) : text;
  };
}

/** An error line: `<file>[:line:col]: <message>`, the message one sentence without stack or object dumps. */
const LINE = /^[\w./-]+\.json(:\d+:\d+)?: \S.*$/;

t.test('docs.json fuzz', async (t) => {
  t.test(`should parse ${FILES} malformed files or reject them with one-line errors, never crash`, async (t) => {
    const next = generator(prng(SEED));
    const outcome = { parsed: 0, rejected: 0, lines: 0 };
    const bad: string[] = [];
    const lines: number[] = [];
    for (let i = 0; i < FILES; i++) {
      const text = next();
      try {
        await loadConfig(text, read, { siteUrl: 'https://a.example', basePath: '' });
        outcome.parsed++;
      } catch (error) {
        if (!(error instanceof BuilderError) || error.kind !== 'user' || error.code !== 'invalid_config') {
          bad.push(`file ${i}: ${String(error)}`);
          continue;
        }
        outcome.rejected++;
        lines.push(error.message.split('\n').length);
        for (const line of error.message.split('\n')) {
          outcome.lines++;
          if (!LINE.test(line) || line.length > 2000 || /undefined|\[object |TypeError|at .*\.ts:/.test(line)) bad.push(`file ${i}: ${line.slice(0, 300)}`);
        }
      }
    }
    t.same(bad, [], 'every failure is an invalid_config error of well-formed lines');
    t.equal(outcome.parsed + outcome.rejected, FILES);
    // The generator must mostly produce bad files, or the fuzz proves little.
    t.ok(lines.every((n) => n <= MAX_CONFIG_ERRORS + 1), 'at most MAX_CONFIG_ERRORS lines and a count');
    t.ok(outcome.rejected > FILES * 0.8, `${outcome.rejected} of ${FILES} rejected (${outcome.lines} lines), ${outcome.parsed} parsed`);
  });

  t.test('should exit 1 with the one-line errors through the CLI', async (t) => {
    const next = generator(prng(SEED + 1));
    const cases: { config: string; files: Record<string, string>; expect?: string[] }[] = [
      { config: '{"name":"A","redirects":{"$ref":"./redirects.json"},"theme":"luma"}', files: { 'redirects.json': '{"not":"a list"}' }, expect: ['error: docs.json: redirects: Unexpected object; expected array'] },
      { config: '{"name":"A","navigation":{"$ref":"../../etc/passwd"}}', files: {}, expect: ['error: docs.json: navigation.$ref: Unexpected "../../etc/passwd"; expected a file inside the repository'] },
      { config: next(), files: REPO, expect: undefined },
    ];
    for (const c of cases) {
      const dir = tempDir();
      makeRepo(dir, { [CONFIG_FILE]: c.config, 'index.mdx': '# Home\n', ...c.files });
      const lines: string[] = [];
      const code = await main([dir, '--out', tempDir()], (l) => lines.push(...l.split('\n')));
      if (c.expect) t.same({ code, lines }, { code: 1, lines: c.expect });
      else {
        t.equal(code, 1, `exit 1 for ${c.config.slice(0, 80)}`);
        t.ok(lines.length > 0 && lines.every((l, i) => (i === 0 ? l.startsWith('error: ') : true) && LINE.test(l.replace(/^error: /, ''))), lines.join('\n'));
      }
    }
  });
});
