/**
 * The site template's MDX components as one plain ES module, so a compile sandbox imports them
 * natively and starts without Vite. Vite (its server, module runner and rolldown) is about half
 * the code a sandbox loads and most of its start; with this bundle a sandbox loads it only when a
 * page needs JavaScript of its own (local-compiler.ts), which a one-page edit or the first page
 * of `dev` usually does not (builder docs/benchmarks.md, "Where a sandbox's start goes").
 *
 * esbuild compiles the template's TSX with the JSX settings Vite uses for it (automatic runtime,
 * Preact) and leaves installed packages as imports, so Preact and every other package stay the
 * one instance the pages a Vite runner evaluates also import; the runner takes the template from
 * this same file (runner-engine.ts), so there is one copy of the template and its contexts.
 *
 * Made by the builder's own process (never in a sandbox, which cannot write), cached under
 * `node_modules/.cache/folio-template/` and keyed by the content of its inputs, like the
 * commands' bundles (scripts/bin/run-bundled.mjs). Where that folder cannot be written and holds
 * no current bundle (a read-only image that did not make one), the answer is undefined and
 * sandboxes load the template through Vite as they did before.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { BUILDER_ROOT } from './template-components.ts';

const ROOT = path.resolve(BUILDER_ROOT, '..');
const ENTRY = path.join(ROOT, 'site-template', 'src', 'components', 'index.ts');
/** Where bundles of the template's components are kept. */
export const TEMPLATE_BUNDLE_DIR = path.join(ROOT, 'node_modules', '.cache', 'folio-template');
const MANIFEST = path.join(TEMPLATE_BUNDLE_DIR, 'manifest.json');
/** Bundles of older sources kept beside the current one: a sandbox started a moment ago may still import one. */
const KEEP_OLD = 2;

const require = createRequire(import.meta.url);

interface Manifest { key: string; inputs: string[] }

function esbuildVersion(): string {
  return (JSON.parse(fs.readFileSync(require.resolve('esbuild/package.json'), 'utf8')) as { version: string }).version;
}

/** The key of a bundle of `inputs` (paths relative to the platform root), or undefined when one is gone. */
function keyOf(inputs: string[]): string | undefined {
  const hash = createHash('sha256').update(`esbuild ${esbuildVersion()}\n`);
  for (const input of inputs) {
    try {
      hash.update(`${input}\n`).update(fs.readFileSync(path.join(ROOT, input)));
    } catch {
      return undefined;
    }
  }
  return hash.digest('hex').slice(0, 16);
}

const fileOf = (key: string) => path.join(TEMPLATE_BUNDLE_DIR, `${key}.mjs`);

function current(): string | undefined {
  let manifest: Manifest;
  try {
    manifest = JSON.parse(fs.readFileSync(MANIFEST, 'utf8')) as Manifest;
  } catch {
    return undefined;
  }
  const file = fileOf(manifest.key);
  return keyOf(manifest.inputs) === manifest.key && fs.existsSync(file) ? file : undefined;
}

function make(): string | undefined {
  fs.mkdirSync(TEMPLATE_BUNDLE_DIR, { recursive: true });
  const tmp = path.join(TEMPLATE_BUNDLE_DIR, `tmp-${process.pid}-${Date.now()}.mjs`);
  try {
    const esbuild = require('esbuild') as typeof import('esbuild');
    const result = esbuild.buildSync({
      entryPoints: [ENTRY], outfile: tmp, absWorkingDir: ROOT,
      bundle: true, format: 'esm', platform: 'node', target: 'node20',
      packages: 'external', jsx: 'automatic', jsxImportSource: 'preact',
      metafile: true, logLevel: 'silent',
    });
    const inputs = Object.keys(result.metafile.inputs).sort();
    const key = keyOf(inputs);
    if (!key) return undefined;
    fs.renameSync(tmp, fileOf(key));
    const manifestTmp = `${MANIFEST}.${process.pid}`;
    fs.writeFileSync(manifestTmp, JSON.stringify({ key, inputs } satisfies Manifest));
    fs.renameSync(manifestTmp, MANIFEST);
    prune(key);
    return fileOf(key);
  } finally {
    fs.rmSync(tmp, { force: true });
  }
}

function prune(keep: string): void {
  const old = fs.readdirSync(TEMPLATE_BUNDLE_DIR)
    .filter((name) => name.endsWith('.mjs') && !name.startsWith('tmp-') && name !== `${keep}.mjs`)
    .map((name) => ({ name, mtime: fs.statSync(path.join(TEMPLATE_BUNDLE_DIR, name)).mtimeMs }))
    .sort((a, b) => b.mtime - a.mtime);
  for (const { name } of old.slice(KEEP_OLD)) fs.rmSync(path.join(TEMPLATE_BUNDLE_DIR, name), { force: true });
}

let answer: { url: string | undefined } | undefined;

/**
 * The `file:` URL of a current bundle of the template's components, made if needed (about 20 ms,
 * once per change of the template); undefined when none can be had. Checked once per process.
 */
export function templateBundle(): string | undefined {
  if (!answer) {
    let file: string | undefined;
    try {
      file = current() ?? make();
    } catch {
      file = undefined;
    }
    answer = { url: file && pathToFileURL(file).href };
  }
  return answer.url;
}
