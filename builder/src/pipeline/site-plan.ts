/**
 * What a commit's site is, read from its files alone: the checked configuration, and which files
 * are pages and which are published as they are. The build's plan step starts from it, and the
 * dev server makes a page before its first build from the same answer; it loads nothing of the
 * compiler, the page cache or search, so the preview is ready without them.
 */
import type { LoadedConfig, ResolvedConfig, SiteLocation } from '../config/parse-config.ts';
import { listedPages } from '../config/navigation-files.ts';
import { readRepoConfig } from '../config/read-repo-config.ts';
import type { RepoSnapshot } from '../git/repo-snapshot.ts';
import { IGNORE_FILE, repoLayout, type RepoLayout } from '../repo-layout.ts';

/** A commit's configuration and layout. */
export interface SitePlan {
  /** `docs.json` as committed (its hash is part of every shell's inputs). */
  configBytes: Uint8Array;
  /** The configuration with the files it included (`$ref`). */
  loaded: LoadedConfig;
  config: ResolvedConfig;
  /** Pages under the content root, and the files published as they are. */
  layout: RepoLayout;
}

/**
 * Reads and checks `docs.json` (see read-repo-config.ts), then lists the pages and static files
 * of the commit, leaving out what `.mintignore` names.
 *
 * @throws BuilderError `invalid_config` (kind `user`) for a missing or invalid `docs.json`.
 */
export async function planSite(snapshot: RepoSnapshot, location: SiteLocation): Promise<SitePlan> {
  const { bytes, loaded } = await readRepoConfig(snapshot, location);
  const config = loaded.config;
  const ignoreText = snapshot.files.has(IGNORE_FILE) ? Buffer.from(await snapshot.read(IGNORE_FILE)).toString('utf8') : undefined;
  const layout = repoLayout(snapshot.files.keys(), config.contentRoot, ignoreText, listedPages(config.navigation));
  // Links leaving the repository are never read: one the site uses fails the build when read;
  // the others (`.mintlify/skills/`, tooling) are skipped, said once.
  const links = snapshot.outsideLinks ?? [];
  if (links.length) config.warnings.push(`Symbolic links leaving the repository skipped: ${links.slice(0, 2).join(', ')}${links.length > 2 ? ` and ${links.length - 2} more` : ''}`);
  return { configBytes: bytes, loaded, config, layout };
}
