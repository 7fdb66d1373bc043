/**
 * The component catalogue cannot drift from the template: every component the builder offers
 * (the `components` map and its sub-components) has exactly one entry, no entry names a
 * component that does not exist, every prop a component reads is listed, and the snippets
 * insert the element they describe. The icon names the editor offers are the icon files the
 * template resolves (`UPDATE_ICON_NAMES=1` rewrites the list after a package upgrade).
 */
import t from 'tap';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { components } from '../../../site-template/src/components/index.ts';
import { COMPONENT_NAMES } from '../../../site-template/src/components/names.ts';
import { COMPONENT_CATALOGUE } from '../../../site-template/src/shared/component-catalogue.ts';
import { ICON_NAMES } from '../../../site-template/src/shared/icon-names.ts';
import { iconNames } from '../../../site-template/src/components/icon-library.ts';

/** Every name a page may use: the map's keys and the function properties of its components (`Tree.Folder`). */
function offeredNames(): string[] {
  return Object.entries(components).flatMap(([name, component]) => [
    name,
    ...Object.entries(component).filter(([, value]) => typeof value === 'function').map(([sub]) => `${name}.${sub}`),
  ]);
}

/** The props a component destructures from its first parameter (`function Card({title,href,...})`), without `children`. */
function destructuredProps(component: unknown): string[] | undefined {
  const params = /^(?:function\s*\w*\s*)?\(?\s*\{([^}]*)\}/.exec(String(component))?.[1];
  if (params === undefined) return undefined;
  return params.split(',').map((p) => p.trim().split(/[=:\s]/)[0]).filter((p) => p && p !== 'children' && !p.startsWith('...'));
}

function lookup(name: string): unknown {
  const [root, sub] = name.split('.');
  const component = components[root] as unknown as Record<string, unknown>;
  return sub ? component?.[sub] : component;
}

t.test('component catalogue', async (t) => {
  t.test('should list every component the builder offers, once, and nothing else', async (t) => {
    const names = COMPONENT_CATALOGUE.map((entry) => entry.name);
    t.same([...names].sort(), offeredNames().sort(), 'the catalogue names exactly the components the template renders');
    t.equal(new Set(names).size, names.length, 'no name twice');
    t.same(COMPONENT_NAMES, names, 'the builder checks element names against the catalogue');
  });

  t.test('should list every prop a component reads', async (t) => {
    let checked = 0;
    for (const entry of COMPONENT_CATALOGUE) {
      const read = destructuredProps(lookup(entry.name));
      if (!read) continue;
      checked++;
      const listed = new Set(entry.props.map((p) => p.name));
      t.same(read.filter((p) => !listed.has(p)), [], `${entry.name}: props read but not in the catalogue`);
    }
    t.ok(checked > 30, `props checked for ${checked} components`);
  });

  t.test('should give each entry a description, distinct prop names and a snippet of its own element', async (t) => {
    for (const entry of COMPONENT_CATALOGUE) {
      t.match(entry.description, /^[A-Z].*\.$/, `${entry.name}: one sentence`);
      const props = entry.props.map((p) => p.name);
      t.equal(new Set(props).size, props.length, `${entry.name}: no prop twice`);
      t.ok(entry.snippet.startsWith(`<${entry.name}`), `${entry.name}: the snippet starts with its element`);
      t.ok(entry.snippet.endsWith('/>') || (entry.children && entry.snippet.endsWith(`</${entry.name}>`)), `${entry.name}: closed, with an end tag only when it takes children`);
      for (const alias of entry.aliases) t.ok(offeredNames().includes(alias), `${entry.name}: alias ${alias} is a component too`);
    }
  });

  t.test('should offer exactly the icon names the template resolves', async (t) => {
    const require = createRequire(import.meta.url);
    const dir = (name: string) => dirname(require.resolve(`${name}/package.json`));
    const folders = [join(dir('lucide-static'), 'icons'), ...['solid', 'brands', 'regular'].map((s) => join(dir('@fortawesome/fontawesome-free'), 'svgs', s))];
    const onDisk = [...new Set(folders.flatMap((f) => readdirSync(f).filter((n) => n.endsWith('.svg')).map((n) => n.slice(0, -4))))].sort();
    if (process.env.UPDATE_ICON_NAMES === '1') {
      const file = fileURLToPath(new URL('../../../site-template/src/shared/icon-names.ts', import.meta.url));
      const lines: string[] = [];
      for (const name of onDisk) {
        if (lines.length && lines[lines.length - 1].length + name.length < 100) lines[lines.length - 1] += ` ${name}`;
        else lines.push(name);
      }
      writeFileSync(file, readFileSync(file, 'utf8').replace(/const TEXT = `[^`]*`/, `const TEXT = \`\n${lines.join('\n')}\n\``));
      t.pass('icon names rewritten');
      return;
    }
    t.same(ICON_NAMES, onDisk, 'shared/icon-names.ts lists the icon files (run with UPDATE_ICON_NAMES=1 after upgrading an icon package)');
    t.equal(iconNames(), ICON_NAMES, 'the template suggests from the same list');
    t.ok(ICON_NAMES.includes('rocket') && ICON_NAMES.includes('github'), 'names from both libraries');
  });
});
