import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The site template package root. */
export const PACKAGE_ROOT = fileURLToPath(new URL('../../', import.meta.url));

function listFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? listFiles(join(dir, e.name)) : [join(dir, e.name)]))
    .sort();
}

/**
 * Hash of everything that shapes the template's output: every source file (shell, components,
 * client scripts, CSS) and the package manifest. Computed once at import (a few dozen small
 * files), so any edit to the template changes it and nothing else does.
 */
function computeVersion(): string {
  const hash = createHash('sha256');
  const files = [...listFiles(join(PACKAGE_ROOT, 'src')), join(PACKAGE_ROOT, 'package.json')];
  for (const file of files) {
    hash.update(relative(PACKAGE_ROOT, file)).update('\0').update(readFileSync(file)).update('\0');
  }
  return hash.digest('hex').slice(0, 16);
}

/** Changes whenever the template's output can change; the builder keys page-shell caches on it. */
export const TEMPLATE_VERSION: string = computeVersion();
