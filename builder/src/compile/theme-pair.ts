/**
 * Light and dark highlighting in one tokenization.
 *
 * shiki's dual-theme output tokenizes every block once per theme, though the grammar's work
 * (the regular expressions) is the same for both: only the colours looked up differ. Tokenizing
 * was 17% of a page's compile CPU, half of it spent twice. Two themes whose rules have the same
 * scope selectors and font styles in the same order (GitHub light/dark, and most paired themes)
 * resolve every token to the same rule index, so one synthetic theme can stand for both: each
 * distinct (light, dark) colour pair gets a placeholder colour, a block is tokenized once with
 * it, and each token's placeholder is turned back into shiki's dual-theme style. The HTML is
 * byte for byte what `codeToHtml(code, { themes: { light, dark }, defaultColor: false })` gives
 * (checked over every code sample of the tests and corpus, see theme-pair tests).
 * Pairs that do not line up return undefined, and callers use the two-pass way, as they must
 * for `ansi` blocks (coloured from each theme's terminal palette, not by rules).
 */
import type { Highlighter, ShikiTransformer, ThemedToken, ThemeRegistrationResolved } from 'shiki';

/** What highlighting a block with a theme pair needs. */
export interface ThemePair {
  /** Name of the synthetic theme loaded into the highlighter. */
  theme: string;
  /** Turns the single-theme output into the dual-theme one; put it first among transformers. */
  transformer: ShikiTransformer;
}

const ITALIC = 1;
const BOLD = 2;
const UNDERLINE = 4;
const STRIKETHROUGH = 8;

/** A token's style in one theme, as shiki's `getTokenStyleObject` makes it (suffix → value). */
function styleOf(color: string | undefined, fontStyle: number): Map<string, string> {
  const style = new Map<string, string>();
  if (color) style.set('', color);
  if (fontStyle & ITALIC) style.set('-font-style', 'italic');
  if (fontStyle & BOLD) style.set('-font-weight', 'bold');
  const decorations = [fontStyle & UNDERLINE ? 'underline' : '', fontStyle & STRIKETHROUGH ? 'line-through' : ''].filter(Boolean);
  if (decorations.length) style.set('-text-decoration', decorations.join(' '));
  return style;
}

/** Both themes' styles as shiki's `flatTokenVariants` merges them: every key for each theme, `inherit` when one lacks it. */
function dualStyle(light: Map<string, string>, dark: Map<string, string>): Record<string, string> {
  const keys = new Set([...light.keys(), ...dark.keys()]);
  const style: Record<string, string> = {};
  for (const key of keys) style[`--shiki-light${key}`] = light.get(key) ?? 'inherit';
  for (const key of keys) style[`--shiki-dark${key}`] = dark.get(key) ?? 'inherit';
  return style;
}

/** shiki's `mergeWhitespaceTokens` as it runs on dual-theme tokens (which carry no font style). */
function mergeWhitespace(line: ThemedToken[]): ThemedToken[] {
  const merged: ThemedToken[] = [];
  let carry = '';
  let offset: number | undefined;
  line.forEach((token, i) => {
    if (/^\s+$/.test(token.content) && line[i + 1]) {
      offset ??= token.offset;
      carry += token.content;
    } else if (carry) {
      merged.push({ ...token, offset: offset!, content: carry + token.content });
      carry = '';
      offset = undefined;
    } else merged.push(token);
  });
  return merged;
}

/**
 * Loads the synthetic theme standing for `light` and `dark` (already loaded) into `highlighter`;
 * undefined when their rules do not line up (then highlight with both themes as usual).
 */
export async function loadThemePair(highlighter: Highlighter, light: string, dark: string): Promise<ThemePair | undefined> {
  const [l, d] = [highlighter.getTheme(light), highlighter.getTheme(dark)];
  if (!linedUp(l, d)) return undefined;
  // vscode-textmate upper-cases colours; tokens carry them so.
  const pairs = new Map<string, string>();
  const decode = new Map<string, [string, string]>();
  const placeholder = (a: string, b: string) => {
    const key = `${a.toUpperCase()} ${b.toUpperCase()}`;
    let color = pairs.get(key);
    if (!color) {
      color = `#${(pairs.size + 1).toString(16).padStart(6, '0').toUpperCase()}`;
      pairs.set(key, color);
      decode.set(color, [a.toUpperCase(), b.toUpperCase()]);
    }
    return color;
  };
  const name = `folio-pair:${light}:${dark}`;
  const settings = l.settings.map((rule, i) => {
    const dl = d.settings[i].settings;
    const fg = rule.settings.foreground;
    return fg === undefined ? rule : { ...rule, settings: { ...rule.settings, foreground: placeholder(fg, dl.foreground!) } };
  });
  await highlighter.loadTheme({ ...l, name, settings, fg: placeholder(l.fg, d.fg), colorReplacements: {} });
  const preStyle = `--shiki-light:${l.fg};--shiki-dark:${d.fg};--shiki-light-bg:${l.bg};--shiki-dark-bg:${d.bg}`;
  const preClass = `shiki shiki-themes ${l.name} ${d.name}`;
  return {
    theme: name,
    transformer: {
      name: 'folio:theme-pair',
      tokens(lines) {
        return lines.map((line) => mergeWhitespace(line.map((token) => {
          const [a, b] = (token.color && decode.get(token.color)) || [token.color, token.color];
          const fontStyle = token.fontStyle ?? 0;
          return { content: token.content, offset: token.offset, htmlStyle: dualStyle(styleOf(a, fontStyle), styleOf(b, fontStyle)) };
        })));
      },
      pre(node) {
        node.properties.class = preClass;
        node.properties.style = preStyle;
      },
    },
  };
}

/**
 * Same rules (selectors, font styles, which ones set a colour) in the same order, no colour
 * replacements. (Rule backgrounds do not matter: shiki gives grammar tokens no background.)
 */
function linedUp(l: ThemeRegistrationResolved, d: ThemeRegistrationResolved): boolean {
  if (l.settings.length !== d.settings.length) return false;
  if (Object.keys(l.colorReplacements ?? {}).length || Object.keys(d.colorReplacements ?? {}).length) return false;
  return l.settings.every((rule, i) => {
    const other = d.settings[i];
    return JSON.stringify(rule.scope) === JSON.stringify(other.scope)
      && (rule.settings.fontStyle ?? '') === (other.settings.fontStyle ?? '')
      && (rule.settings.foreground === undefined) === (other.settings.foreground === undefined);
  });
}
