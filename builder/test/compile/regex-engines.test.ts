import fs from 'node:fs';
import t from 'tap';
import { bundledLanguages, createHighlighter } from 'shiki';
import { createJavaScriptRegexEngine, defaultJavaScriptRegexConstructor } from 'shiki/engine/javascript';
import { createOnigurumaEngine } from 'shiki/engine/oniguruma';
import { startSandbox } from '../../src/sandbox/sandbox-process.ts';
import { createSharedHighlighter, DEFAULT_THEMES, HIGHLIGHT_OPTIONS, ONIGURUMA_ONLY } from '../../src/compile/highlighter.ts';

// The highlighter matches grammars with JavaScript's RegExp instead of Oniguruma (see
// highlighter.ts): it must colour code exactly as Oniguruma does.

const samples = JSON.parse(fs.readFileSync(new URL('./fixtures/code-samples/samples.json', import.meta.url), 'utf8')) as Record<string, string>;
const themes = [DEFAULT_THEMES.light, DEFAULT_THEMES.dark];
const html = (h: Awaited<ReturnType<typeof createHighlighter>>, code: string, lang: string) =>
  h.codeToHtml(code, { lang, themes: { light: DEFAULT_THEMES.light, dark: DEFAULT_THEMES.dark }, defaultColor: false, ...HIGHLIGHT_OPTIONS });

/** Every regular expression of a grammar (its rules' match, begin, end and while patterns). */
function patternsOf(node: unknown, out: string[] = []): string[] {
  if (Array.isArray(node)) for (const item of node) patternsOf(item, out);
  else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (typeof value === 'string' && (key === 'match' || key === 'begin' || key === 'end' || key === 'while')) out.push(value);
      else patternsOf(value, out);
    }
  }
  return out;
}

t.test('every bundled grammar translates to JavaScript but those left to Oniguruma', async (t) => {
  const untranslatable = new Set<string>();
  const seen = new Set<string>();
  for (const load of Object.values(bundledLanguages)) {
    for (const grammar of (await load()).default) {
      if (seen.has(grammar.name)) continue;
      seen.add(grammar.name);
      for (const pattern of patternsOf(grammar)) {
        try { defaultJavaScriptRegexConstructor(pattern); } catch { untranslatable.add(grammar.name); break; }
      }
    }
  }
  t.ok(seen.size > 200, `${seen.size} grammars read`);
  t.same([...untranslatable].sort(), [...ONIGURUMA_ONLY].sort(), 'ONIGURUMA_ONLY lists exactly the grammars with a pattern JavaScript cannot match');
});

t.test('both engines colour the languages docs use most the same', async (t) => {
  const langs = Object.keys(samples);
  for (const lang of langs) t.ok(Object.hasOwn(bundledLanguages, lang), `${lang} is a bundled language`);
  const translatable = langs.filter((lang) => !ONIGURUMA_ONLY.includes(lang));
  const [javascript, oniguruma] = await Promise.all([
    createHighlighter({ themes, langs: translatable, engine: createJavaScriptRegexEngine({ forgiving: true }) }),
    createHighlighter({ themes, langs: translatable, engine: createOnigurumaEngine(import('shiki/wasm')) }),
  ]);
  for (const lang of translatable) t.equal(html(javascript, samples[lang], lang), html(oniguruma, samples[lang], lang), lang);
});

t.test('the shared highlighter colours code as Oniguruma does, a grammar JavaScript cannot match included', async (t) => {
  const shared = await createSharedHighlighter();
  const oniguruma = await createHighlighter({ themes, langs: ['python', ...ONIGURUMA_ONLY], engine: createOnigurumaEngine(import('shiki/wasm')) });
  for (const lang of ['python', ...ONIGURUMA_ONLY]) {
    t.equal(await shared.ensureLanguage(lang), lang);
    const colours = html(shared.highlighterOf(lang), samples[lang], lang);
    t.equal(colours, html(oniguruma, samples[lang], lang), lang);
    t.match(colours, /--shiki-dark:#/, `${lang} is coloured`);
  }
});

t.test('in a compile sandbox, after its lock-down, both engines colour fences', async (t) => {
  const box = startSandbox({ limits: { heapMb: 512 } });
  t.teardown(() => box.close());
  const source = `# Code\n\n\`\`\`python\n${samples.python}\n\`\`\`\n\n\`\`\`ahk2\n${samples.ahk2}\n\`\`\`\n`;
  const [page] = await box.compile([{ sourcePath: 'docs/code.mdx', source, contentRoot: 'docs/' }], { readFile: async () => undefined }, { cpuMs: 60_000, wallMs: 120_000 }) as Array<{ bodyHtml?: string; message?: string }>;
  t.ok(page.bodyHtml, page.message ?? 'the page compiled');
  const blocks = page.bodyHtml!.split('<pre').slice(1);
  t.equal(blocks.length, 2, 'two code blocks');
  for (const block of blocks) t.match(block, /--shiki-dark:#/, 'coloured');
});
