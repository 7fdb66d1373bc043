/** @jsxRuntime automatic @jsxImportSource preact */
import { toChildArray, type ComponentChildren, type VNode } from 'preact';
import { useId } from 'preact/hooks';
import { anchorId } from '../node/anchor-id.ts';
import { IconGlyph } from './icon.tsx';
import { textOf } from './text-of.ts';

/** Props of `<Tab>`: `title` (the tab's label, text or JSX) and an optional `icon`. */
export interface TabProps { title: ComponentChildren; icon?: string; iconType?: string; children?: ComponentChildren }

/**
 * One panel of `<Tabs>`. Rendered by `Tabs`; on its own (outside Tabs) it renders its content
 * under its title so nothing is lost.
 */
export function Tab({ title, children }: TabProps) {
  const text = textOf(title);
  return (
    <div class="tab-panel" id={text ? anchorId(text) : undefined} data-label={text}>
      {children}
    </div>
  );
}

/** Props of `<Tabs>`: `<Tab>` children; `defaultIndex` selects the first shown tab (default 0). */
export interface TabsProps { defaultIndex?: number; children?: ComponentChildren }

/**
 * WAI-ARIA tabs. Without JavaScript every panel shows, each under its label, and the tab list is
 * hidden (it could not switch anything); the client script marks the group `data-ready`, hides
 * the other panels and adds arrow-key handling.
 */
export function Tabs({ defaultIndex = 0, children }: TabsProps) {
  const id = useId();
  const tabs = toChildArray(children).filter((c) => typeof c === 'object' && c !== null && 'props' in c) as VNode<TabProps>[];
  const selected = Math.min(Math.max(defaultIndex, 0), Math.max(tabs.length - 1, 0));
  // A panel's id is Mintlify's id of its title (`OAuth 2.0` → `oauth-2-0`), so `#oauth-2-0` opens it (client/tabs.ts); a repeated title in one group gets `-2`.
  const seen = new Map<string, number>();
  const panelIds = tabs.map((t, i) => {
    const text = textOf(t.props.title);
    if (!text) return `${id}-p${i}`;
    const base = anchorId(text);
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    return n === 1 ? base : `${base}-${n}`;
  });
  return (
    <div class="tabs" data-tabs="">
      <div class="tab-list" role="tablist">
        {tabs.map((t, i) => (
          <button
            type="button"
            role="tab"
            id={`${id}-t${i}`}
            aria-controls={panelIds[i]}
            aria-selected={i === selected ? 'true' : 'false'}
            tabindex={i === selected ? 0 : -1}
          >
            {t.props.icon ? <IconGlyph icon={t.props.icon} iconType={t.props.iconType} /> : null}
            {t.props.title}
          </button>
        ))}
      </div>
      {tabs.map((t, i) => (
        <div
          class="tab-panel"
          role="tabpanel"
          id={panelIds[i]}
          aria-labelledby={`${id}-t${i}`}
          data-label={textOf(t.props.title)}
          data-selected={i === selected ? '' : undefined}
          tabindex={0}
        >
          {t.props.children}
        </div>
      ))}
    </div>
  );
}

/**
 * `<CodeGroup>`: tabs over code blocks. The tab labels come from each block's title or language,
 * which only the rendered figures know, so the client script builds the tab list; without
 * JavaScript the blocks simply stack.
 */
export function CodeGroup({ children }: { children?: ComponentChildren }) {
  return (
    <div class="code-group" data-code-group="">
      {children}
    </div>
  );
}
