import t from 'tap';
import githubDark from '@shikijs/themes/github-dark';
import githubLight from '@shikijs/themes/github-light';
import { THEMES } from '../../src/node/theme-traits.ts';
import { sampleSite } from '../../src/node/sample-site.tsx';
import { browseStatic } from '../helpers/browser.ts';
import { createExampleSite } from '../helpers/example-site.ts';

/** Every foreground a theme can give a token (its token rules and its default text colour), upper case as shiki writes them. */
function tokenColours(theme: typeof githubLight): string[] {
  const all = theme.tokenColors?.map((rule) => rule.settings.foreground).filter((c): c is string => !!c) ?? [];
  return [...new Set([theme.colors?.['editor.foreground'], ...all].filter((c): c is string => !!c).map((c) => c.toUpperCase()))];
}

const COLOURS = { light: tokenColours(githubLight), dark: tokenColours(githubDark) };

/** The line kinds whose background a token may sit on: plain, highlighted, added and removed (`diff`). */
const LINES = { plain: 'line', highlighted: 'line highlighted', added: 'line diff add', removed: 'line diff remove' };

/** One code block: a line of each kind holding a span per token colour of both code themes. */
function everyColourBlock(): string {
  const spans = (['light', 'dark'] as const).flatMap((mode) => COLOURS[mode].map((c) => `<span data-for="${mode}" style="--shiki-light:${c};--shiki-dark:${c}">${c} </span>`)).join('');
  const lines = Object.entries(LINES).map(([kind, cls]) => `<span class="${cls}" data-kind="${kind}">${spans}</span>`).join('\n');
  return '<figure class="code-block" data-lang="ts" data-diff><div class="code-badge">ts</div>' +
    `<pre class="shiki shiki-themes github-light github-dark" style="--shiki-light:#24292e;--shiki-dark:#e1e4e8;--shiki-light-bg:#fff;--shiki-dark-bg:#24292e" tabindex="0"><code>${lines}</code></pre></figure>`;
}

/**
 * For each line kind and each span of the current mode's code theme, the WCAG contrast of the
 * colour drawn against the line's background drawn over the block's. Colours are drawn on a
 * canvas and read back as sRGB pixels, so whatever CSS produced them (relative colours,
 * color-mix, alpha) is measured as displayed. A string, so the transpiler adds no helpers.
 */
const RATIOS = `((mode) => {
  const canvas = document.createElement('canvas');
  canvas.width = canvas.height = 1;
  const ctx = canvas.getContext('2d', { willReadFrequently: true });
  const paint = (...fills) => { ctx.clearRect(0, 0, 1, 1); for (const f of fills) { ctx.fillStyle = f; ctx.fillRect(0, 0, 1, 1); } return [...ctx.getImageData(0, 0, 1, 1).data].slice(0, 3); };
  const lum = (rgb) => { const [r, g, b] = rgb.map((v) => (v / 255 <= 0.04045 ? v / 255 / 12.92 : ((v / 255 + 0.055) / 1.055) ** 2.4)); return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
  const block = getComputedStyle(document.querySelector('.code-block')).backgroundColor;
  const out = {};
  for (const line of document.querySelectorAll('.code-block .line')) {
    const bg = lum(paint(block, getComputedStyle(line).backgroundColor));
    for (const span of line.querySelectorAll('span[data-for="' + mode + '"]')) {
      const fg = lum(paint(getComputedStyle(span).color));
      out[line.dataset.kind + ' ' + span.textContent.trim()] = Math.round(((Math.max(fg, bg) + 0.05) / (Math.min(fg, bg) + 0.05)) * 100) / 100;
    }
  }
  return out;
})`;

t.test('code contrast', async (t) => {
  const site = await createExampleSite();
  const body = { path: '/colours', title: 'Colours', bodyHtml: everyColourBlock(), toc: [], rss: false, markdownPath: '/colours.md', feedPath: '/colours/rss.xml' };
  for (const theme of THEMES) {
    for (const mode of ['light', 'dark'] as const) await site.addPage(`/${theme}-${mode}`, sampleSite(theme, { appearance: { default: mode, strict: false } }), { page: body });
  }
  const { server, browser } = await browseStatic(t, site.dir);
  const page = await browser.newPage();

  const failing: string[] = [];
  let lowest = Infinity;
  for (const theme of THEMES) {
    for (const mode of ['light', 'dark'] as const) {
      await page.goto(`${server.origin}/${theme}-${mode}`);
      const ratios = await page.evaluate<Record<string, number>>(`(${RATIOS})(${JSON.stringify(mode)})`);
      for (const [what, ratio] of Object.entries(ratios)) {
        lowest = Math.min(lowest, ratio);
        if (ratio < 4.5) failing.push(`${theme} ${mode}, ${what}: ${ratio}:1`);
      }
    }
  }
  t.comment(`${COLOURS.light.length} light and ${COLOURS.dark.length} dark token colours, 4 line kinds, ${THEMES.length} themes; lowest ratio ${lowest}:1`);

  t.test('should give every token colour of both code themes 4.5:1 on its line in every theme, light and dark', async (t) => {
    t.same(failing, []);
  });
});
