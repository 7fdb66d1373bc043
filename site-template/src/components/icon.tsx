/** @jsxRuntime automatic @jsxImportSource preact */
import { iconName, resolveIcon } from './icon-library.ts';

/** Props of `<Icon>` and of every component's `icon`: a name, an image URL or path, or an emoji. */
export interface IconProps {
  icon?: string;
  /** Font Awesome style: `solid`, `regular`, `brands` (others fall back to `solid`). */
  iconType?: string;
  /** CSS colour; default: the surrounding text colour. */
  color?: string;
  /** Size in pixels (default 16, or the surrounding font size where the component sets it). */
  size?: number | string;
  class?: string;
}

const IMAGE = /^(?:https?:\/\/|\/|\.\.?\/)|\.(?:svg|png|jpe?g|gif|webp)$/i;

/**
 * An icon as inline SVG (decorative, `aria-hidden`), an `<img>` for a URL or path, or the text
 * itself for an emoji. A name that is in neither library renders nothing: the name as a word
 * would read as content.
 */
export function IconGlyph({ icon, iconType, color, size, class: className }: IconProps) {
  if (typeof icon !== 'string' || icon.trim() === '') return null;
  const px = size === undefined ? undefined : Number(size) || undefined;
  const style = [color ? `color:${color.replace(/[;{}<>]/g, '')}` : '', px ? `width:${px}px;height:${px}px` : ''].filter(Boolean).join(';') || undefined;
  const cls = className ? `icon ${className}` : 'icon';
  if (IMAGE.test(icon)) return <img class={cls} src={icon} alt="" aria-hidden="true" style={style} />;
  if (iconName(icon) === undefined) return <span class={cls} aria-hidden="true" style={style}>{icon}</span>;
  const svg = resolveIcon(icon, iconType);
  if (!svg) return null;
  return (
    <svg
      class={cls}
      data-icon={iconName(icon)}
      viewBox={svg.viewBox}
      width="16"
      height="16"
      fill={svg.stroked ? 'none' : 'currentColor'}
      stroke={svg.stroked ? 'currentColor' : undefined}
      stroke-width={svg.stroked ? '2' : undefined}
      stroke-linecap={svg.stroked ? 'round' : undefined}
      stroke-linejoin={svg.stroked ? 'round' : undefined}
      aria-hidden="true"
      style={style}
      dangerouslySetInnerHTML={{ __html: svg.body }}
    />
  );
}

/** `<Icon icon="rocket" />`: an inline icon in running text. */
export function Icon(props: IconProps) {
  return <IconGlyph {...props} class="icon-inline" />;
}
