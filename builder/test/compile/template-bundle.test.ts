import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { TEMPLATE_BUNDLE_DIR, templateBundle } from '../../src/compile/template-bundle.ts';
import { COMPONENT_NAMES } from '@folio/site-template/components/names.ts';

t.test('the template bundle is a current, importable module with every built-in component', async (t) => {
  const url = templateBundle();
  t.ok(url, 'a bundle is had where node_modules/.cache can be written');
  const file = fileURLToPath(url!);
  t.equal(path.dirname(file), TEMPLATE_BUNDLE_DIR);
  t.equal(templateBundle(), url, 'checked once per process');

  const manifest = JSON.parse(fs.readFileSync(path.join(TEMPLATE_BUNDLE_DIR, 'manifest.json'), 'utf8')) as { key: string; inputs: string[] };
  t.equal(path.basename(file), `${manifest.key}.mjs`, 'the manifest names the bundle');
  t.ok(manifest.inputs.includes('site-template/src/components/index.ts'), 'its inputs are the template\'s sources');
  t.notOk(manifest.inputs.some((input) => input.includes('node_modules')), 'installed packages stay imports, not bundled');

  const text = fs.readFileSync(file, 'utf8');
  t.match(text, /from "preact\/jsx-runtime"/, 'JSX compiled for Preact\'s automatic runtime');

  const { components } = await import(url!) as { components: Record<string, unknown> };
  for (const name of COMPONENT_NAMES.filter((n) => !n.includes('.'))) t.type(components[name], 'function', `${name} is exported`);
});
