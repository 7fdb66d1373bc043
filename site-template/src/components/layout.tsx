/** @jsxRuntime automatic @jsxImportSource preact */
import type { ComponentChildren } from 'preact';
import { CopyButton } from './code-block.tsx';
import { IconGlyph } from './icon.tsx';
import { textOf } from './text-of.ts';

/** Props of `<Columns>`: `cols` (1–4, default 2; one column on narrow screens). */
export interface ColumnsProps { cols?: number | string; children?: ComponentChildren }

/** A grid of any content (cards, `<Column>`s, images). */
export function Columns({ cols = 2, children }: ColumnsProps) {
  return <div class="columns" style={`--cols:${Math.min(Math.max(Math.trunc(Number(cols)) || 2, 1), 4)}`}>{children}</div>;
}

/** `<Column>`: one cell of `<Columns>` holding several blocks. */
export function Column({ children }: { children?: ComponentChildren }) {
  return <div class="column">{children}</div>;
}

/** `<Panel>`: content set apart beside the page's flow (an aside; it stacks on narrow screens). */
export function Panel({ children }: { children?: ComponentChildren }) {
  return <aside class="panel">{children}</aside>;
}

/** Props of `<Tile>`: `title`, `description`, `href`; the children are its preview (an image or a snippet). */
export interface TileProps { title?: ComponentChildren; description?: ComponentChildren; href?: string; children?: ComponentChildren }

/** A visual preview tile, a link when it has `href`. */
export function Tile({ title, description, href, children }: TileProps) {
  const inner = [
    <div class="tile-preview">{children}</div>,
    title ? <span class="tile-title">{title}</span> : null,
    description ? <span class="tile-description">{description}</span> : null,
  ];
  return href ? <a class="tile" href={href}>{inner}</a> : <div class="tile">{inner}</div>;
}

/** Props of `<View>`: `title` (e.g. a language) and optional `icon`. */
export interface ViewProps { title?: ComponentChildren; icon?: string; iconType?: string; children?: ComponentChildren }

/**
 * One variant of a page's content (Mintlify's multi-view). The page's script (client/views.ts)
 * offers the views of a page in one selector and shows the chosen one, remembered for the
 * reader's next pages; without the script every view renders in order under its title.
 */
export function View({ title, icon, iconType, children }: ViewProps) {
  return (
    <section class="view" data-view={textOf(title) || undefined}>
      {title ? <p class="view-title">{icon ? <IconGlyph icon={icon} iconType={iconType} /> : null}{title}</p> : null}
      {children}
    </section>
  );
}

/** Props of `<PreviewButton>`: `href` (required to be a link) and optional `icon`. */
export interface PreviewButtonProps { href?: string; icon?: string; iconType?: string; children?: ComponentChildren }

/** A call-to-action button link, e.g. to a live preview. */
export function PreviewButton({ href, icon, iconType, children }: PreviewButtonProps) {
  const inner = [icon ? <IconGlyph icon={icon} iconType={iconType} /> : null, <span>{children}</span>];
  return href ? <a class="preview-button" href={href}>{inner}</a> : <span class="preview-button">{inner}</span>;
}

/** Props of `<Prompt>`: `description` (shown as its title), `icon`; the children are the prompt text. */
export interface PromptProps { description?: ComponentChildren; title?: ComponentChildren; icon?: string; iconType?: string; actions?: unknown; children?: ComponentChildren }

/**
 * A prompt for an AI assistant with a copy button. It uses the code-block markup contract
 * (`figure.code-block` with `template.code-raw` and `.code-copy`), so the one client copy
 * behaviour serves it and the button shows only where copying can work.
 */
export function Prompt({ description, title, icon, iconType, children }: PromptProps) {
  const heading = title ?? description;
  return (
    <figure class="code-block prompt" data-lang="prompt">
      {heading ? <figcaption class="code-title">{icon ? <IconGlyph icon={icon} iconType={iconType} /> : null}{heading}</figcaption> : null}
      <CopyButton label="Copy prompt" />
      <div class="prompt-body">{children}</div>
      <template class="code-raw">{textOf(children).trim()}</template>
    </figure>
  );
}
