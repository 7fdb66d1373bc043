/** @jsxRuntime automatic @jsxImportSource preact */
import type { ComponentChildren } from 'preact';
import { anchorId } from '../node/anchor-id.ts';
import { IconGlyph } from './icon.tsx';
import { textOf } from './text-of.ts';

/**
 * Props of `<Step>`: `title` (text or JSX), optional `id` (default: from the title's text),
 * `icon`, `stepNumber` (the number shown), `titleSize` (`p`, `h2`, `h3`, `h4`; default from
 * `<Steps>`), `noAnchor` (no id).
 */
export interface StepProps {
  title?: ComponentChildren; id?: string; icon?: string; iconType?: string; stepNumber?: number | string;
  titleSize?: string; noAnchor?: boolean; children?: ComponentChildren;
}

const TITLE_SIZES = new Set(['p', 'h2', 'h3', 'h4']);

/** One numbered step; numbers come from a CSS counter on the list (an `icon` or `stepNumber` replaces the number). */
export function Step({ title, id, icon, iconType, stepNumber, titleSize, noAnchor, children }: StepProps) {
  const text = textOf(title);
  const Title = (titleSize && TITLE_SIZES.has(titleSize) ? titleSize : 'p') as 'p';
  const number = stepNumber === undefined || stepNumber === '' ? undefined : String(stepNumber);
  return (
    <li class="step" id={noAnchor ? undefined : id ?? (text ? anchorId(text) : undefined)} data-icon={icon ? '' : undefined} data-number={number}
      style={number ? `--step-number:"${number.replace(/["\\]/g, '')}"` : undefined}>
      {icon ? <IconGlyph icon={icon} iconType={iconType} class="step-icon" /> : null}
      {title ? <Title class="step-title">{title}</Title> : null}
      <div class="step-body">{children}</div>
    </li>
  );
}

/** `<Steps>`: an ordered list of `<Step>`s; `titleSize` applies to every step that sets none. */
export function Steps({ titleSize, children }: { titleSize?: string; children?: ComponentChildren }) {
  return <ol class="steps" data-title-size={titleSize && TITLE_SIZES.has(titleSize) ? titleSize : undefined}>{children}</ol>;
}

/**
 * Props of `<Card>`: `title`, optional `href` (the whole card becomes a link), `icon` (an icon
 * name, image URL or emoji; `iconType`, `color`), `img` (a cover image), `horizontal`, `cta`.
 */
export interface CardProps {
  title?: ComponentChildren; href?: string; icon?: string; iconType?: string; color?: string; img?: string;
  horizontal?: boolean; cta?: string; arrow?: boolean; children?: ComponentChildren;
}

/** A boxed summary, optionally a link. */
export function Card({ title, href, icon, iconType, color, img, horizontal, cta, arrow, children }: CardProps) {
  const inner = [
    img ? <img class="card-img" src={img} alt="" /> : null,
    icon ? <span class="card-icon" aria-hidden="true"><IconGlyph icon={icon} iconType={iconType} color={color} /></span> : null,
    title ? <span class="card-title">{title}</span> : null,
    children ? <div class="card-body">{children}</div> : null,
    cta ? <span class="card-cta">{cta}</span> : null,
    // `arrow` (default: shown for links to other sites) marks where the card leads.
    href && (arrow ?? /^https?:\/\//.test(href)) ? <span class="card-arrow" aria-hidden="true">→</span> : null,
  ];
  const layout = horizontal ? 'horizontal' : undefined;
  return href ? <a class="card" href={href} data-layout={layout}>{inner}</a> : <div class="card" data-layout={layout}>{inner}</div>;
}

/** Props of `<CardGroup>`: `cols` (default 2; one column on narrow screens). */
export interface CardGroupProps { cols?: number; children?: ComponentChildren }

/** A grid of cards. */
export function CardGroup({ cols = 2, children }: CardGroupProps) {
  return (
    <div class="card-group" style={`--cols:${Math.min(Math.max(Math.trunc(Number(cols)) || 2, 1), 4)}`}>
      {children}
    </div>
  );
}

/** Props of `<Accordion>`: `title` (text or JSX), optional `description`, `defaultOpen` (default false), `id`, `icon`. */
export interface AccordionProps { title: ComponentChildren; description?: ComponentChildren; defaultOpen?: boolean; id?: string; icon?: string; iconType?: string; children?: ComponentChildren }

/** A disclosure built on `<details>`: keyboard and screen-reader support come from the browser, and it works without JS. */
export function Accordion({ title, description, defaultOpen = false, id, icon, iconType, children }: AccordionProps) {
  return (
    <details class="accordion" id={id ?? (textOf(title) ? anchorId(textOf(title)) : undefined)} open={defaultOpen}>
      <summary>
        {icon ? <IconGlyph icon={icon} iconType={iconType} class="accordion-icon" /> : null}
        <span class="accordion-title">{title}</span>
        {description ? <span class="accordion-description">{description}</span> : null}
      </summary>
      <div class="accordion-body">{children}</div>
    </details>
  );
}

/** `<AccordionGroup>`: accordions joined into one bordered list. */
export function AccordionGroup({ children }: { children?: ComponentChildren }) {
  return <div class="accordion-group">{children}</div>;
}

/**
 * Props of `<Frame>`: optional `caption` and `hint` (shown above); `src` (with `alt`) frames an
 * image without writing `<img>`, and `srcDark` gives it a dark-mode variant.
 */
export interface FrameProps { caption?: ComponentChildren; hint?: ComponentChildren; src?: string; srcDark?: string; alt?: string; children?: ComponentChildren }

/** A framed figure for screenshots and diagrams. */
export function Frame({ caption, hint, src, srcDark, alt = '', children }: FrameProps) {
  return (
    <figure class="frame">
      {hint ? <p class="frame-hint">{hint}</p> : null}
      <div class="frame-body">
        {src ? <ThemedImage src={src} srcDark={srcDark} alt={alt} /> : null}
        {children}
      </div>
      {caption ? <figcaption>{caption}</figcaption> : null}
    </figure>
  );
}

/**
 * An image with an optional dark-mode variant: two `<img>`s, one shown per mode by the same CSS
 * that swaps the logo (it follows the reader's toggle, and the system setting without JS).
 */
export function ThemedImage({ src, srcDark, alt = '' }: { src: string; srcDark?: string; alt?: string }) {
  if (!srcDark) return <img src={src} alt={alt} />;
  return [<img class="img-light" src={src} alt={alt} />, <img class="img-dark" src={srcDark} alt={alt} />];
}

/**
 * Props of `<Badge>`: `color` (gray, blue, green, yellow, red, purple, orange, white, surface,
 * and the `-destructive`/`-success` names map to red and green; default gray), `size` (xs, sm,
 * md, lg), `shape` (rounded, pill), `stroke`, `disabled`, optional `icon`.
 */
export interface BadgeProps {
  color?: string; size?: string; shape?: string; stroke?: boolean; disabled?: boolean; icon?: string; iconType?: string;
  className?: string; children?: ComponentChildren;
}

const BADGE_COLORS = new Set(['gray', 'blue', 'green', 'yellow', 'red', 'purple', 'orange', 'white', 'surface']);
const BADGE_ALIASES: Record<string, string> = { destructive: 'red', success: 'green', warning: 'yellow', info: 'blue' };

/** An inline label. */
export function Badge({ color = 'gray', size, shape, stroke, disabled, icon, iconType, children }: BadgeProps) {
  const named = BADGE_ALIASES[color.replace(/^.*-/, '')] ?? color;
  return (
    <span class="badge" data-color={BADGE_COLORS.has(named) ? named : 'gray'} data-size={size && /^(?:xs|sm|md|lg)$/.test(size) ? size : undefined}
      data-shape={shape === 'pill' ? 'pill' : undefined} data-stroke={stroke ? '' : undefined} aria-disabled={disabled ? 'true' : undefined}>
      {icon ? <IconGlyph icon={icon} iconType={iconType} /> : null}{children}
    </span>
  );
}

/**
 * Props of `<Update>`: `label` (text or JSX; also the anchor id; an update without one has no
 * anchor), `description`, `date` (ISO or free text), `tags` (shown under the label; a page's
 * tags become a filter, client/update-filter.ts), `rss` (feed text only: the builder reads it
 * for the RSS item; nothing renders).
 */
export interface UpdateProps { label?: ComponentChildren; description?: ComponentChildren; date?: string; tags?: unknown; rss?: unknown; children?: ComponentChildren }

/** The tags of an update as strings (a list, or one string). */
export function updateTags(tags: unknown): string[] {
  const list = Array.isArray(tags) ? tags : typeof tags === 'string' ? [tags] : [];
  return list.filter((tag): tag is string => typeof tag === 'string' && tag.trim() !== '').map((tag) => tag.trim());
}

/** A changelog entry: an anchored section the page's RSS feed is generated from. */
export function Update({ label, description, date, tags, children }: UpdateProps) {
  const id = textOf(label) ? anchorId(textOf(label)) : undefined;
  const tagList = updateTags(tags);
  return (
    <section class="update" id={id} aria-labelledby={id ? `${id}-label` : undefined} data-tags={tagList.length ? JSON.stringify(tagList) : undefined}>
      <div class="update-meta">
        {label ? (
          <h2 class="update-label" id={id ? `${id}-label` : undefined}>
            {id ? <a href={`#${id}`}>{label}</a> : label}
          </h2>
        ) : null}
        {date ? <time datetime={/^\d{4}-\d{2}-\d{2}/.test(date) ? date : undefined}>{date}</time> : null}
        {description ? <p class="update-description">{description}</p> : null}
        {tagList.length ? <ul class="update-tags">{tagList.map((tag) => <li class="update-tag">{tag}</li>)}</ul> : null}
      </div>
      <div class="update-body">{children}</div>
    </section>
  );
}

/** Props of `<Visibility>`: `for` is `humans` or `agents`. */
export interface VisibilityProps { for: 'humans' | 'agents'; children?: ComponentChildren }

/**
 * Audience-specific content (spec 2.12). Humans content renders normally, marked so exports can
 * strip it; agents content stays in the DOM with an inline `display:none` so crawlers reading
 * HTML still see it while browsers hide it even without the stylesheet.
 */
export function Visibility(props: VisibilityProps) {
  return props.for === 'agents'
    ? <div data-visibility="agents" style="display:none">{props.children}</div>
    : <div data-visibility="humans">{props.children}</div>;
}
