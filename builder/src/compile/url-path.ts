/**
 * Clean URL paths of pages: `docs/guides/install.mdx` → `/guides/install`, `docs/index.mdx` →
 * `/`, `docs/guides/index.mdx` → `/guides` (content root `docs/`; `.md` works the same way).
 */
import { posix } from 'node:path';

/** The URL path of the page at repository path `sourcePath` under `contentRoot` (ending in `/`, or empty for the repository root). */
export function urlPathFor(sourcePath: string, contentRoot: string): string {
  const root = contentRoot === '' || contentRoot === '/' ? '' : contentRoot.replace(/\/*$/, '/');
  const inside = root !== '' && sourcePath.startsWith(root) ? sourcePath.slice(root.length) : sourcePath;
  const noExt = inside.replace(/\.(mdx|md)$/, '');
  const parts = noExt.split('/').filter(Boolean);
  if (parts.at(-1) === 'index') parts.pop();
  return posix.join('/', ...parts);
}
