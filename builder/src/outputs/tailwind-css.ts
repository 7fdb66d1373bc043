/**
 * Tailwind utility classes in page markup (`<img className="block dark:hidden" />`, as Mintlify
 * pages write them). Only the classes the site's pages use are generated, at build time, with
 * Tailwind v4's own compiler (the `tailwindcss` package: pure JavaScript, its CSS read from
 * node_modules, so it runs offline). Candidates are the tokens of every `class` attribute of the
 * compiled bodies; Tailwind ignores tokens that are no utility.
 *
 * Decisions: utilities are `!important` (an author's utility must beat the theme's prose rules,
 * as it does on Mintlify, where the theme is itself Tailwind); no preflight (the theme keeps its
 * own base styles); `dark:` follows the template's dark mode: `data-mode="dark"` on <html>, or
 * the system preference when no script has set it.
 *
 * Arbitrary values (`bg-[url(…)]`, `[mask-image:…]`, `[cursor:…]`) are the page author's CSS, on
 * every plan: the sheet goes through the site CSS policy (css/sanitize-css.ts), so a utility may
 * load only from the site itself (`bg-[url(/images/hero.png)]`); any other target becomes `none`.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { sanitizeSiteCss } from '../css/sanitize-css.ts';
import { sha256 } from '../sha256.ts';

const INPUT = `@import "tailwindcss/theme.css";
@import "tailwindcss/utilities.css" important;
@custom-variant dark {
  &:where([data-mode=dark], [data-mode=dark] *) { @slot; }
  @media (prefers-color-scheme: dark) { &:where(:root:not([data-mode]), :root:not([data-mode]) *) { @slot; } }
}
`;

const packageJson = createRequire(import.meta.url).resolve('tailwindcss/package.json');
const packageDir = packageJson.replace(/package\.json$/, '');

const sheets = new Map<string, Promise<string>>();

/**
 * A Tailwind compiler for the input above. A fresh one per build: a compiler remembers every
 * candidate it was given, so reusing one would leak one site's classes into the next.
 */
async function tailwind() {
  // Loaded when a sheet is made: a build whose classes are the last build's keeps its sheet.
  const { compile } = await import('tailwindcss');
  return compile(INPUT, {
    base: packageDir,
    // Only Tailwind's own stylesheets are imported (read once per process); nothing from the repository or the network.
    loadStylesheet: async (id, base) => {
      const file = id.replace(/^tailwindcss\//, packageDir);
      let content = sheets.get(file);
      if (!content) sheets.set(file, (content = fs.promises.readFile(file, 'utf8')));
      return { path: file, base, content: await content };
    },
  });
}

/** The distinct tokens of every `class` attribute in `html`, sorted. */
export function classCandidates(html: string): string[] {
  const out = new Set<string>();
  for (const m of html.matchAll(/\sclass=(?:"([^"]*)"|'([^']*)')/g)) {
    for (const token of (m[1] ?? m[2]).split(/\s+/)) if (token) out.add(token.replaceAll('&amp;', '&').replaceAll('&quot;', '"').replaceAll('&#39;', "'"));
  }
  return [...out].sort();
}

/**
 * Stylesheets made lately, by their sorted candidates: the CSS depends on nothing else, and a
 * long-lived builder (the worker, the dev preview) asks again for the same classes on nearly every
 * build, where making the compiler and the sheet is not free (builder docs/benchmarks.md,
 * "Tailwind sheets").
 */
const made = new Map<string, Promise<string>>();
const MADE_KEPT = 16;

/** The CSS of the utilities among `candidates`; `''` when none is a utility. */
export function tailwindCss(candidates: Iterable<string>): Promise<string> {
  const list = sortedCandidates(candidates);
  return cssOf(list, sheetInputs(list));
}

const sortedCandidates = (candidates: Iterable<string>) => [...new Set(candidates)].sort();

/**
 * Part of a sheet's inputs: bump it whenever what is done to Tailwind's output changes, so a
 * build after the change makes the sheet again instead of keeping the published one.
 */
const SHEET_VERSION = 'site-css-policy-1';

/** sha256 of what a sheet is made from: Tailwind's version, the input above, the sanitising and the sorted candidates. */
function sheetInputs(list: readonly string[]): string {
  return sha256([tailwindVersion(), INPUT, SHEET_VERSION, ...list].join('\n'));
}

/** The sheet of `list`, made once for the sheets made lately (`key`: `sheetInputs(list)`). */
function cssOf(list: string[], key: string): Promise<string> {
  let css = made.get(key);
  if (css) made.delete(key); // most recently used last
  else css = utilitiesCss(list);
  made.set(key, css);
  css.catch(() => made.delete(key));
  for (const old of made.keys()) if (made.size > MADE_KEPT) made.delete(old);
  return css;
}

async function utilitiesCss(candidates: string[]): Promise<string> {
  const c = await tailwind();
  // Cached by candidates alone, so judged without the site's URL: only paths stay.
  const css = sanitizeSiteCss(c.build(candidates)).css;
  // With no utility in use Tailwind still prints its banner and theme variables: nothing to serve.
  return /\{[^}]*:[^}]*\}/.test(css.replace(/:root, :host \{[^}]*\}/g, '')) ? css : '';
}

/** Object key of the site's utilities stylesheet, named by its content. */
export function tailwindKey(css: string): string {
  return `_folio/utilities-${sha256(css).slice(0, 12)}.css`;
}

/** What a build remembers of its utilities sheet (in the manifest): what it was made from, and its key. */
export interface UtilitiesState {
  /** What it was made from (`sheetInputs`). */
  from: string;
  /** Object key of the sheet; absent when no candidate was a utility. */
  key?: string;
}

/**
 * The site's utilities sheet: the last build's, kept (`keep` says whether its object is still
 * there) when it was made from the same candidates by the same Tailwind, else made again; `css`
 * is set when the sheet must be published. A fresh build process thus neither loads Tailwind nor
 * makes the sheet for an edit that changes no class.
 */
export async function utilitiesSheet(candidates: Iterable<string>, last: UtilitiesState | undefined, keep: (key: string) => boolean): Promise<{ state: UtilitiesState; css?: string }> {
  const { list, from } = inputsOf(candidates);
  if (last?.from === from && (last.key === undefined || keep(last.key))) return { state: last };
  const css = await cssOf(list, from);
  if (!css) return { state: { from } };
  const key = tailwindKey(css);
  return { state: { from, key }, ...(keep(key) ? {} : { css }) };
}

let version: string | undefined;
function tailwindVersion(): string {
  version ??= (JSON.parse(fs.readFileSync(packageJson, 'utf8')) as { version: string }).version;
  return version;
}

/** Sorted candidates and their `sheetInputs`, by the candidates' object (see `classesOfPages`). */
const inputsMemo = new WeakMap<object, { list: string[]; from: string }>();

function inputsOf(candidates: Iterable<string>): { list: string[]; from: string } {
  const known = inputsMemo.get(candidates);
  if (known) return known;
  const list = sortedCandidates(candidates);
  const made = { list, from: sheetInputs(list) };
  inputsMemo.set(candidates, made);
  return made;
}

let lastLists: ReadonlyArray<readonly string[] | undefined> = [];
let lastClasses: readonly string[] = [];

/**
 * Every page's class names in one array, for `utilitiesSheet`: the array of the last call itself
 * when each page's list is the one passed then (a kept builder's next build passes the same
 * frozen lists, but for the pages it compiled) or holds the same names, so the sheet's inputs are
 * not sorted and hashed again. Read-only.
 */
export function classesOfPages(lists: ReadonlyArray<readonly string[] | undefined>): readonly string[] {
  const same = lists.length === lastLists.length && lists.every((list, i) => list === lastLists[i] || sameList(list, lastLists[i]));
  lastLists = lists;
  if (!same) lastClasses = lists.flatMap((list) => list ?? []);
  return lastClasses;
}

function sameList(a: readonly string[] | undefined, b: readonly string[] | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return a.length === b.length && a.every((value, i) => value === b[i]);
}
