/**
 * The one shiki highlighter a compiler shares across pages. Creating it costs 100-230 ms and
 * every grammar it loads stays loaded, so it is created once per compiler (per worker) and
 * grammars are loaded on first use.
 */
import { bundledLanguages, createHighlighter, type Highlighter, type RegexEngine } from 'shiki';
import { createJavaScriptRegexEngine } from 'shiki/engine/javascript';
import { createOnigurumaEngine } from 'shiki/engine/oniguruma';
import { loadThemePair, type ThemePair } from './theme-pair.ts';

/** Light and dark theme names; the HTML carries both as CSS variables (`defaultColor: false`). */
export interface CodeThemes { light: string; dark: string }

/** Default themes: GitHub light and dark. */
export const DEFAULT_THEMES: CodeThemes = { light: 'github-light', dark: 'github-dark' };

/**
 * Options every highlight passes. shiki stops tokenizing a line after `tokenizeTimeLimit` ms
 * (default 500) and leaves the rest of it uncoloured. The first lines a grammar tokenizes are
 * slow (its expressions compile then), slower on a loaded machine, so with a limit the same page
 * could come out differently depending on load. 0 turns the limit off: the HTML depends on the
 * code alone, and code that would never finish tokenizing runs into the page's CPU limit in its
 * sandbox instead.
 */
export const HIGHLIGHT_OPTIONS = { tokenizeTimeLimit: 0 } as const;

/** A highlighter plus the grammar loading it needs before highlighting synchronously. */
export interface SharedHighlighter {
  highlighter: Highlighter;
  themes: CodeThemes;
  /** Both themes in one tokenization, when their rules line up (see theme-pair.ts). */
  pair?: ThemePair;
  /**
   * Loads the grammar for a fence tag when shiki knows it and returns the language to highlight
   * with: the tag itself, or `text` for unknown tags (plain text, the badge still shows the tag).
   */
  ensureLanguage(tag: string): Promise<string>;
  /** The highlighter to highlight `lang` with, once `ensureLanguage` returned it: `highlighter`, or the grammar's own (see below). */
  highlighterOf(lang: string): Highlighter;
  /**
   * The language `ensureLanguage(tag)` returned, when it has finished (so a page rendering now
   * can highlight synchronously: `<CodeBlock>`); undefined while the grammar is not loaded.
   */
  loadedLanguage(tag: string): string | undefined;
}

type BundledLanguage = keyof typeof bundledLanguages;

/**
 * Markdown and MDX fences highlight with these grammars loaded beside them, always the same ones:
 * front matter (YAML, TOML), MDX's JSX and ESM, and the languages docs show most.
 */
const EMBEDDED: BundledLanguage[] = ['markdown', 'mdx', 'yaml', 'toml', 'tsx', 'jsx', 'typescript', 'javascript', 'json', 'shellscript', 'html', 'css'];

/**
 * Grammars match with JavaScript's own regular expressions (shiki's JavaScript engine: Oniguruma
 * patterns translated by oniguruma-to-es), not with Oniguruma compiled to WebAssembly. The
 * WebAssembly memory grows with every expression a grammar compiles and is never given back; with
 * the expressions as RegExps in V8's heap a sandbox peaks lower (builder docs/benchmarks.md,
 * "Regular expression engine"). Same CPU, same HTML: a 1,000-page build came out byte for byte the
 * same, and `test/compile/regex-engines.test.ts` compares both engines on the languages docs use
 * most and checks that every bundled grammar translates, but those in {@link ONIGURUMA_ONLY}.
 */
const JAVASCRIPT_ENGINE = createJavaScriptRegexEngine({ forgiving: true });

/** Grammars with a pattern the JavaScript engine cannot translate: a language using one highlights with Oniguruma. */
export const ONIGURUMA_ONLY = ['ahk2'];

/** Creates the shared highlighter with the given themes (default {@link DEFAULT_THEMES}). */
export async function createSharedHighlighter(themes: CodeThemes = DEFAULT_THEMES): Promise<SharedHighlighter> {
  const highlighter = await createHighlighter({ themes: [themes.light, themes.dark], langs: [], engine: JAVASCRIPT_ENGINE });
  const pending = new Map<string, Promise<void>>();
  const ready = new Set<string>();
  const pair = await loadThemePair(highlighter, themes.light, themes.dark);
  // Grammars that embed others lazily (Markdown, MDX…) colour code inside them (a YAML front
  // matter, JSX, a fenced block) only with the embedded grammar already loaded: in one shared
  // highlighter they took whichever grammars earlier pages of the sandbox happened to load, and the
  // same fence came out coloured in one build and plain in another, as pages were shared
  // differently between sandboxes. So they highlight apart, with a fixed set of grammars: Markdown
  // and MDX together with the languages docs embed most (`EMBEDDED`), loaded at once; any other
  // such grammar alone. Their output then depends on the code alone. (Every grammar they may
  // embed, 117 for MDX, would cost 2 s of CPU per sandbox to load.)
  const apart = new Map<string, Promise<Highlighter>>();
  const byLanguage = new Map<string, Highlighter>();
  const alone = (langs: BundledLanguage[], engine: RegexEngine | Promise<RegexEngine> = JAVASCRIPT_ENGINE) => createHighlighter({ themes: [themes.light, themes.dark], langs, engine }).then(async (h) => {
    // The same synthetic theme as the shared highlighter's (its name and colours follow from the two themes).
    if (pair) await loadThemePair(h, themes.light, themes.dark);
    return h;
  });
  const load = async (lang: BundledLanguage): Promise<Highlighter> => {
    const grammars = (await bundledLanguages[lang]()).default;
    if (grammars.some((g) => ONIGURUMA_ONLY.includes(g.name))) {
      const own = alone([lang], createOnigurumaEngine(import('shiki/wasm')));
      byLanguage.set(lang, await own);
      return own;
    }
    if (!grammars.some((g) => g.embeddedLangsLazy?.length)) {
      await highlighter.loadLanguage(lang);
      return highlighter;
    }
    // A module lists the grammars it embeds first and its own last; a tag may be an alias (`md`).
    const own = grammars[grammars.length - 1].name as BundledLanguage;
    const set = EMBEDDED.includes(own) ? EMBEDDED : [own];
    const name = set.join(' ');
    let h = apart.get(name);
    if (!h) apart.set(name, h = alone(set));
    const target = await h;
    byLanguage.set(lang, target);
    return target;
  };
  return {
    highlighter,
    themes,
    ...(pair ? { pair } : {}),
    async ensureLanguage(tag: string): Promise<string> {
      const lang = tag.toLowerCase();
      if (lang === '' || lang === 'text' || lang === 'plaintext' || lang === 'txt') return 'text';
      if (!Object.hasOwn(bundledLanguages, lang)) return 'text';
      let loading = pending.get(lang);
      if (!loading) {
        loading = load(lang as BundledLanguage).then((target) => {
          ready.add(lang);
          // Measured with shiki 4.6: now and then the very first highlight after a grammar loads
          // gave the light theme's tokens the default colour (most likely the time limit that
          // HIGHLIGHT_OPTIONS now turns off). A throwaway highlight also warms the grammar.
          target.codeToHtml('x', { lang, themes: { light: themes.light, dark: themes.dark }, defaultColor: false, ...HIGHLIGHT_OPTIONS });
        });
        pending.set(lang, loading);
      }
      await loading;
      return lang;
    },
    highlighterOf: (lang) => byLanguage.get(lang) ?? highlighter,
    loadedLanguage(tag: string): string | undefined {
      const lang = tag.toLowerCase();
      if (lang === '' || lang === 'text' || lang === 'plaintext' || lang === 'txt' || !Object.hasOwn(bundledLanguages, lang)) return 'text';
      return ready.has(lang) ? lang : undefined;
    },
  };
}
