/** @jsxRuntime automatic @jsxImportSource preact */
import type { ComponentChildren } from 'preact';
import { slugify } from '../node/urls.ts';

/** Props of `<Step>`: `title` and optional `id` (default: from the title). */
export interface StepProps { title?: string; id?: string; children?: ComponentChildren }

/** One numbered step; numbers come from a CSS counter on the list. */
export function Step({ title, id, children }: StepProps) {
  return (
    <li class="step" id={id ?? (title ? slugify(title) : undefined)}>
      {title ? <p class="step-title">{title}</p> : null}
      <div class="step-body">{children}</div>
    </li>
  );
}

/** `<Steps>`: an ordered list of `<Step>`s. */
export function Steps({ children }: { children?: ComponentChildren }) {
  return <ol class="steps">{children}</ol>;
}

/** Props of `<Card>`: `title`, optional `href` (the whole card becomes a link) and `icon` (text or emoji). */
export interface CardProps { title?: string; href?: string; icon?: string; children?: ComponentChildren }

/** A boxed summary, optionally a link. */
export function Card({ title, href, icon, children }: CardProps) {
  const inner = [
    icon ? <span class="card-icon" aria-hidden="true">{icon}</span> : null,
    title ? <span class="card-title">{title}</span> : null,
    children ? <div class="card-body">{children}</div> : null,
  ];
  return href ? <a class="card" href={href}>{inner}</a> : <div class="card">{inner}</div>;
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

/** Props of `<Accordion>`: `title`, optional `description`, `defaultOpen` (default false), `id`. */
export interface AccordionProps { title: string; description?: string; defaultOpen?: boolean; id?: string; children?: ComponentChildren }

/** A disclosure built on `<details>`: keyboard and screen-reader support come from the browser, and it works without JS. */
export function Accordion({ title, description, defaultOpen = false, id, children }: AccordionProps) {
  return (
    <details class="accordion" id={id} open={defaultOpen}>
      <summary>
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

/** Props of `<Frame>`: optional `caption` and `hint` (shown above). */
export interface FrameProps { caption?: string; hint?: string; children?: ComponentChildren }

/** A framed figure for screenshots and diagrams. */
export function Frame({ caption, hint, children }: FrameProps) {
  return (
    <figure class="frame">
      {hint ? <p class="frame-hint">{hint}</p> : null}
      <div class="frame-body">{children}</div>
      {caption ? <figcaption>{caption}</figcaption> : null}
    </figure>
  );
}

/** Props of `<Badge>`: `color` (gray, blue, green, yellow, red, purple; default gray). */
export interface BadgeProps { color?: string; children?: ComponentChildren }

const BADGE_COLORS = new Set(['gray', 'blue', 'green', 'yellow', 'red', 'purple']);

/** An inline label. */
export function Badge({ color = 'gray', children }: BadgeProps) {
  return <span class="badge" data-color={BADGE_COLORS.has(color) ? color : 'gray'}>{children}</span>;
}

/**
 * Props of `<Update>`: `label` (required; also the anchor id), `description`, `date` (ISO or
 * free text), `rss` (feed text only: the builder reads it for the RSS item; nothing renders).
 */
export interface UpdateProps { label: string; description?: string; date?: string; rss?: string; children?: ComponentChildren }

/** A changelog entry: an anchored section the page's RSS feed is generated from. */
export function Update({ label, description, date, children }: UpdateProps) {
  const id = slugify(label);
  return (
    <section class="update" id={id} aria-labelledby={`${id}-label`}>
      <div class="update-meta">
        <h2 class="update-label" id={`${id}-label`}>
          <a href={`#${id}`}>{label}</a>
        </h2>
        {date ? <time datetime={/^\d{4}-\d{2}-\d{2}/.test(date) ? date : undefined}>{date}</time> : null}
        {description ? <p class="update-description">{description}</p> : null}
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
