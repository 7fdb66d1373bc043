import { toChildArray, type ComponentChildren, type VNode } from 'preact';

/**
 * The plain text of rendered children: props such as `title` may be JSX (`title={<>Set
 * <code>up</code></>}`), and ids, labels and attributes need their text.
 */
export function textOf(children: ComponentChildren): string {
  return toChildArray(children).map((c) => (typeof c === 'object' ? textOf((c as VNode<{ children?: ComponentChildren }>).props?.children) : String(c))).join('');
}
