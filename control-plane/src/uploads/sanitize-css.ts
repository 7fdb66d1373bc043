/**
 * The CSS allow-list of uploaded SVGs (`<style>` text, `style` attributes, presentation
 * attributes such as `fill`): the SVG policy of the platform's one CSS sanitiser
 * (`@folio/builder`'s `sanitize-css.ts`, which the builder applies to sites' own CSS). A logo's
 * CSS may style and reference its own document, never load anything: every `url()` other than a
 * same-document fragment (`url(#id)`), every function that takes an image or a URL string
 * (`image-set()`, `image()`, `cross-fade()`, `element()`), legacy script hooks (`expression()`,
 * `behavior`, `-moz-binding`), and every at-rule other than `@media`, `@supports` and
 * `@keyframes` (so `@import`, `@font-face`, `@namespace` go) are removed with the declaration or
 * rule holding them. What stays is written back token for token (CSS with nothing to remove is
 * returned as it came).
 */
export {
  /** The safe part of a stylesheet (`<style>` text); '' when nothing is left. */
  sanitizeSvgStylesheet as sanitizeStylesheet,
  /** The safe declarations of a `style` attribute; '' when nothing is left. */
  sanitizeSvgDeclarations as sanitizeDeclarations,
  /** Whether a CSS value (a presentation attribute such as `fill`) loads nothing and runs nothing. */
  isSafeSvgCssValue as isSafeCssValue,
} from '@folio/builder';
