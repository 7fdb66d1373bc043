import fs from 'node:fs';
import t from 'tap';
import { createHighlighter } from 'shiki';
import { renderCodeBlock } from '../../src/compile/code-block.ts';
import { parseCodeMeta } from '../../src/compile/code-meta.ts';
import { createSharedHighlighter, HIGHLIGHT_OPTIONS } from '../../src/compile/highlighter.ts';
import { loadThemePair } from '../../src/compile/theme-pair.ts';

/** Code in many shapes: keywords, strings, comments, font styles, entities, blank and indented lines. */
const SAMPLES: Array<[string, string]> = [
  ['md', 'Some *italic* and **bold** ~~gone~~ `code`\n# Head\n  \n\t<u>x</u>\n> quote [link](http://x.example)'],
  ['ts', fs.readFileSync(new URL('../../src/compile/theme-pair.ts', import.meta.url), 'utf8')],
  ['tsx', 'export const A = () => <div className="a">{`x ${1}`}</div>;'],
  ['python', 'def f(x):\n    """doc"""\n    return f"{x!r}"  # note\n\n\n@dec\nclass A: pass'],
  ['bash', 'echo "$HOME" && ls -la | grep \'x\' # c\nexport A=1'],
  ['diff', '--- a\n+++ b\n@@ -1 +1 @@\n- old\n+ new\n  same'],
  ['json', '{\n  "a": [1, 2.5, true, null],\n  "b": "c"\n}'],
  ['html', '<a href="x">&amp; <b>y</b></a><!-- c -->'],
  ['yaml', 'a: 1\nb:\n  - "x"\n  - y # c'],
  ['go', 'package main\n\nfunc main() {\n\tfmt.Println("hi")\n}'],
  ['text', 'plain\n\n  text  '],
  ['ts', ''],
  ['ts', '   \n\n  x  '],
];

t.test('loadThemePair', async (t) => {
  const hl = await createHighlighter({ themes: ['github-light', 'github-dark', 'one-light', 'one-dark-pro'], langs: [...new Set(SAMPLES.map(([lang]) => lang))] });
  t.teardown(() => hl.dispose());
  const pair = (await loadThemePair(hl, 'github-light', 'github-dark'))!;

  t.test('should give the same HTML as highlighting with both themes, in one tokenization', async (t) => {
    t.ok(pair);
    for (const [lang, code] of SAMPLES) {
      // Without a time limit: a grammar's first, slow lines must not be cut short on a loaded machine.
      const twoPass = hl.codeToHtml(code, { lang, themes: { light: 'github-light', dark: 'github-dark' }, defaultColor: false, ...HIGHLIGHT_OPTIONS });
      t.equal(hl.codeToHtml(code, { lang, theme: pair.theme, mergeWhitespaces: false, transformers: [pair.transformer], ...HIGHLIGHT_OPTIONS }), twoPass, `${lang}: ${code.slice(0, 30)}`);
    }
  });

  t.test('should refuse themes whose rules do not line up', async (t) => {
    t.equal(await loadThemePair(hl, 'one-light', 'one-dark-pro'), undefined);
  });
});

t.test('renderCodeBlock with a theme pair', async (t) => {
  const shared = await createSharedHighlighter();
  t.teardown(() => shared.highlighter.dispose());
  t.ok(shared.pair, 'the default themes line up');
  const { pair: _pair, ...twoPass } = shared;

  t.test('should render every option and the ansi palette as the two-pass way does', async (t) => {
    for (const [tag, code, meta] of [['ts', SAMPLES[1][1], 'lines highlight={2,4-6} focus={3} wrap Title'], ['md', SAMPLES[0][1], 'expandable'], ['ansi', '\u001b[31mred\u001b[0m plain', '']]) {
      const lang = await shared.ensureLanguage(tag);
      t.equal(renderCodeBlock(shared, code, tag, lang, parseCodeMeta(meta)), renderCodeBlock(twoPass, code, tag, lang, parseCodeMeta(meta)), tag);
    }
  });
});
