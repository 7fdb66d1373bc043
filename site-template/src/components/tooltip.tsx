/** @jsxRuntime automatic @jsxImportSource preact */
import type { ComponentChildren } from 'preact';
import { useId } from 'preact/hooks';

/** Props of `<Tooltip>`: `tip` (the text), optional `headline`, `cta` with `href` (a link inside the tip). */
export interface TooltipProps { tip?: ComponentChildren; headline?: ComponentChildren; cta?: string; href?: string; children?: ComponentChildren }

/**
 * A term with an explanation shown on hover and on keyboard focus, by CSS alone (no script):
 * the term is focusable and names the tip with `aria-describedby`, so screen readers read it.
 */
export function Tooltip({ tip, headline, cta, href, children }: TooltipProps) {
  const id = useId();
  return (
    <span class="tooltip" tabindex={0} aria-describedby={id}>
      {children}
      <span class="tooltip-tip" role="tooltip" id={id}>
        {headline ? <strong class="tooltip-headline">{headline}</strong> : null}
        {tip}
        {cta && href ? <a class="tooltip-cta" href={href}>{cta}</a> : null}
      </span>
    </span>
  );
}
