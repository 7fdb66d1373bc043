import t from 'tap';
import { resolveControls } from '../../src/node/controls.tsx';
import { sampleSite } from '../../src/node/sample-site.tsx';
import type { SiteConfig, ThemeName } from '../../src/shared/types.ts';

const options = [{ label: 'v2', href: '/' }, { label: 'v1', href: '/v1' }];
const switchers = { version: { current: 'v2', options }, product: { current: 'API', options: [{ label: 'API', href: '/' }] }, language: { current: 'English', options: [{ label: 'English', href: '/' }] } };

function layout(theme: ThemeName, site: Partial<SiteConfig> = {}) {
  return resolveControls({ site: sampleSite(theme, { assistantTrigger: 'button', ...site }), switchers });
}

t.test('controls', async (t) => {
  t.test('should put version and product in the sidebar footer on themes whose footer renders controls', async (t) => {
    t.same(layout('cedar'), { header: ['language', 'assistant', 'appearance'], sidebar: ['version', 'product'] });
    t.same(layout('terminal', { navbar: { controls: { version: 'header' } } }), { header: ['language', 'version', 'assistant', 'appearance'], sidebar: ['product'] });
  });

  t.test('should keep version and product in the header on the other themes, even when placed in the sidebar', async (t) => {
    t.same(layout('larch', { navbar: { controls: { version: 'sidebar', product: 'sidebar' } } }), { header: ['language', 'version', 'product', 'assistant', 'appearance'], sidebar: [] });
  });

  t.test('should honour sidebar placement of the other controls on every theme', async (t) => {
    t.same(layout('larch', { navbar: { controls: { appearance: 'sidebar', language: 'sidebar' } } }), { header: ['version', 'product', 'assistant'], sidebar: ['language', 'appearance'] });
  });

  t.test('should list ordered names first and keep the rest in default order', async (t) => {
    t.same(layout('larch', { navbar: { controls: { order: ['appearance', 'product', 'appearance'] } } }).header, ['appearance', 'product', 'language', 'version', 'assistant']);
  });

  t.test('should show the assistant only for the button trigger and switchers only with entries', async (t) => {
    t.same(resolveControls({ site: sampleSite('larch', { assistantTrigger: 'none' }) }), { header: ['appearance'], sidebar: [] });
    t.same(resolveControls({ site: sampleSite('larch', { appearance: { default: 'system', strict: true } }) }), { header: [], sidebar: [] });
  });
});
