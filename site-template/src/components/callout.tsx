/** @jsxRuntime automatic @jsxImportSource preact */
import type { ComponentChildren } from 'preact';
import { Icon, type IconName } from './icons.tsx';
import { IconGlyph } from './icon.tsx';

/** Callout kinds; each has its own colour and icon. */
export type CalloutKind = 'note' | 'tip' | 'warning' | 'info' | 'check' | 'danger';

const ICONS: Record<CalloutKind, IconName> = { note: 'note', tip: 'tip', warning: 'warning', info: 'info', check: 'success', danger: 'danger' };
const LABELS: Record<CalloutKind, string> = { note: 'Note', tip: 'Tip', warning: 'Warning', info: 'Info', check: 'Check', danger: 'Danger' };

/**
 * Props of `<Callout>`: `type` (default `note`; `kind` is accepted as a synonym), an optional
 * `title`, and `icon` (a name, URL or emoji; `iconType`, `color`) replacing the kind's icon.
 */
export interface CalloutProps { type?: CalloutKind; kind?: CalloutKind; title?: ComponentChildren; icon?: string; iconType?: string; color?: string; children?: ComponentChildren }

/**
 * A highlighted aside. `role="note"` plus a visually hidden kind label, so screen readers
 * announce "Warning:" where sighted readers see the colour and icon.
 */
export function Callout({ type, kind, title, icon, iconType, color, children }: CalloutProps) {
  const k: CalloutKind = type ?? kind ?? 'note';
  const resolved = Object.hasOwn(ICONS, k) ? k : 'note';
  return (
    <div class="callout" data-kind={resolved} role="note" style={color ? `--c:${color.replace(/[;{}<>]/g, '')}` : undefined}>
      {icon ? <IconGlyph icon={icon} iconType={iconType} class="callout-icon" /> : <Icon name={ICONS[resolved]} class="callout-icon" />}
      <div class="callout-body">
        {title ? <p class="callout-title">{title}</p> : <span class="sr-only">{LABELS[resolved]}: </span>}
        {children}
      </div>
    </div>
  );
}

type AliasProps = Omit<CalloutProps, 'type' | 'kind'>;
/** `<Note>`: a note callout. */
export const Note = (p: AliasProps) => <Callout {...p} type="note" />;
/** `<Tip>`: a tip callout. */
export const Tip = (p: AliasProps) => <Callout {...p} type="tip" />;
/** `<Warning>`: a warning callout. */
export const Warning = (p: AliasProps) => <Callout {...p} type="warning" />;
/** `<Info>`: an info callout. */
export const Info = (p: AliasProps) => <Callout {...p} type="info" />;
/** `<Check>`: a success callout. */
export const Check = (p: AliasProps) => <Callout {...p} type="check" />;
/** `<Danger>`: a danger callout (for destructive or irreversible actions). */
export const Danger = (p: AliasProps) => <Callout {...p} type="danger" />;
