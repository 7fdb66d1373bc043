import { userError } from '../errors.ts';
import type { RepoSnapshot } from '../git/repo-snapshot.ts';
import { checkNavigationFiles, chooseContentRoot } from './navigation-files.ts';
import { CONFIG_FILE, loadConfig, type LoadedConfig, type SiteLocation } from './parse-config.ts';

/** `docs.json` of a repository: its bytes as committed and the configuration they resolve to. */
export interface RepoConfig { bytes: Uint8Array; loaded: LoadedConfig }

/**
 * Reads `docs.json` from the root of `snapshot`, with its `$ref` includes, and checks it: its
 * schema, then its navigation against the repository's files (which folder the page paths are
 * relative to, and that each names a page; see `navigation-files.ts`), before any page is
 * compiled. The build and the dev preview (which checks it before it is ready) read it the same way.
 *
 * @throws BuilderError `invalid_config` (kind `user`) when the file is missing or invalid, or a
 *   navigation entry names no page.
 */
export async function readRepoConfig(snapshot: RepoSnapshot, location: SiteLocation): Promise<RepoConfig> {
  const bytes = snapshot.files.has(CONFIG_FILE) ? await snapshot.read(CONFIG_FILE) : undefined;
  if (bytes === undefined) throw userError('invalid_config', `${CONFIG_FILE}: file not found; expected it at the repository root`, { file: CONFIG_FILE });
  const readText = async (p: string) => (snapshot.files.has(p) ? Buffer.from(await snapshot.read(p)).toString('utf8') : undefined);
  // Without a docs/ folder and without contentRoot, the repository root holds the pages.
  const hasDocsFolder = [...snapshot.files.keys()].some((p) => p.startsWith('docs/'));
  const text = Buffer.from(bytes).toString('utf8');
  const loaded = await loadConfig(text, readText, location, { hasDocsFolder });
  const { config } = loaded;
  const written = (JSON.parse(text) as { contentRoot?: unknown }).contentRoot !== undefined;
  config.contentRoot = chooseContentRoot(snapshot.files, config.contentRoot, written, config.navigation, config.navigationPaths);
  // Without .mintignore: matching it costs ~9 µs a path on every build; an entry naming an ignored
  // page is still reported, by the sidebar, after compiling.
  checkNavigationFiles(snapshot.files, config.contentRoot, config.navigation, config.navigationPaths);
  return { bytes, loaded };
}
