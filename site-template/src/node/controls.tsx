/** @jsxRuntime automatic @jsxImportSource preact */
import type { ControlName, PageShellInput, Switcher } from '../shared/types.ts';
import { Icon } from '../components/icons.tsx';
import { THEME_TRAITS } from './theme-traits.ts';
import { withBase } from './urls.ts';

/** Header order when `navbar.controls.order` names nothing. */
export const DEFAULT_CONTROL_ORDER: ControlName[] = ['language', 'version', 'product', 'assistant', 'appearance'];

/** Where each shown control goes, in render order. */
export interface ControlLayout { header: ControlName[]; sidebar: ControlName[] }

/**
 * Resolves navbar.controls: which controls exist (the toggle unless `strict`; switchers with
 * entries; the assistant when its trigger is `button`), where they go, and in what order
 * (the listed names first, the rest in default order).
 */
export function resolveControls(input: Pick<PageShellInput, 'site' | 'switchers'>): ControlLayout {
  const { site, switchers } = input;
  const cfg = site.navbar?.controls ?? {};
  const footerControls = THEME_TRAITS[site.theme].sidebarFooterControls;
  const listed = (cfg.order ?? []).filter((n, i, a) => DEFAULT_CONTROL_ORDER.includes(n) && a.indexOf(n) === i);
  const order = [...listed, ...DEFAULT_CONTROL_ORDER.filter((n) => !listed.includes(n))];
  const layout: ControlLayout = { header: [], sidebar: [] };
  for (const name of order) {
    const shown =
      name === 'appearance' ? !site.appearance.strict
      : name === 'assistant' ? site.assistantTrigger === 'button'
      : (switchers?.[name]?.options.length ?? 0) > 0;
    if (!shown) continue;
    const placement = cfg[name] ?? 'auto';
    const switcher = name === 'version' || name === 'product';
    const inSidebar = switcher ? placement !== 'header' && footerControls : placement === 'sidebar';
    layout[inSidebar ? 'sidebar' : 'header'].push(name);
  }
  return layout;
}

const SWITCHER_LABELS = { language: 'Language', version: 'Version', product: 'Product' } as const;

function SwitcherControl({ name, switcher, basePath, inMenu }: { name: 'language' | 'version' | 'product'; switcher: Switcher; basePath: string; inMenu?: boolean }) {
  // <details> keeps the menu usable without JavaScript.
  return (
    <details class={inMenu ? 'switcher menu-switcher' : 'switcher'} data-control={name}>
      <summary aria-label={`${SWITCHER_LABELS[name]}: ${switcher.current}`}>
        {switcher.current}
        <Icon name="chevron" />
      </summary>
      <ul>
        {switcher.options.map((o) => (
          <li>
            <a href={withBase(basePath, o.href)} aria-current={o.label === switcher.current ? 'true' : undefined}>{o.label}</a>
          </li>
        ))}
      </ul>
    </details>
  );
}

/**
 * One control by name. The toggle and the assistant need JavaScript, so they show only once it
 * runs. `inMenu` marks a switcher's copy in the narrow-screen menu (class `menu-switcher`).
 */
export function Control({ name, input, inMenu }: { name: ControlName; input: Pick<PageShellInput, 'site' | 'switchers'>; inMenu?: boolean }) {
  if (name === 'appearance') {
    return (
      <button class="appearance-toggle js-only" type="button" data-control="appearance" aria-label="Toggle dark mode">
        <Icon name="sun" class="icon-sun" />
        <Icon name="moon" class="icon-moon" />
      </button>
    );
  }
  if (name === 'assistant') {
    return (
      <button class="assistant-open js-only" type="button" data-control="assistant">
        <Icon name="sparkle" />
        <span class="assistant-label">Ask AI</span>
      </button>
    );
  }
  const switcher = input.switchers?.[name];
  return switcher ? <SwitcherControl name={name} switcher={switcher} basePath={input.site.basePath} inMenu={inMenu} /> : null;
}
