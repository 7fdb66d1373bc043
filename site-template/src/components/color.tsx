/** @jsxRuntime automatic @jsxImportSource preact */
import type { ComponentChildren } from 'preact';

/** A CSS colour value as authors write it; anything that could end the declaration is dropped. */
const cssColor = (value: unknown) => String(value ?? '').replace(/[;{}<>"]/g, '');

/** Props of `<Color.Item>`: `name` and `value` (any CSS colour). */
export interface ColorItemProps { name?: string; value?: string }

/** One swatch: the colour, its name and its value. */
function ColorItem({ name, value }: ColorItemProps) {
  return (
    <div class="color-item">
      <span class="color-swatch" style={`background:${cssColor(value)}`} aria-hidden="true" />
      {name ? <span class="color-name">{name}</span> : null}
      <code class="color-value">{value}</code>
    </div>
  );
}

/** `<Color.Row title="…">`: a labelled row of swatches. */
function ColorRow({ title, children }: { title?: string; children?: ComponentChildren }) {
  return (
    <div class="color-row">
      {title ? <p class="color-row-title">{title}</p> : null}
      <div class="color-items">{children}</div>
    </div>
  );
}

/** `<Color variant="compact|table">` with `<Color.Item>` or `<Color.Row>` children: a palette. */
export function Color({ variant = 'compact', children }: { variant?: string; children?: ComponentChildren }) {
  return <div class="color-palette" data-variant={variant === 'table' ? 'table' : 'compact'}>{children}</div>;
}
Color.Item = ColorItem;
Color.Row = ColorRow;
