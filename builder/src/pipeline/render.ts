/**
 * The render step: the pages' client modules (islands), the site's stylesheets (Tailwind
 * utilities, custom CSS), then every page shell whose inputs changed and the 404 page
 * (render-shells.ts). The search index's last part starts first and runs beside the shells.
 */
import { sha256 } from '../sha256.ts';
import { buildCustomCss, customCssFiles, customCssKey, fileList, siteFilesEnding } from '../css/custom-css.ts';
import type { RepoSnapshot } from '../git/repo-snapshot.ts';
import { publishSiteFonts } from '../fonts/site-fonts.ts';
import { publishIslands } from '../outputs/island-bundle.ts';
import { plannedSearchBase } from '../outputs/search-index.ts';
import { classesOfPages, utilitiesSheet, type UtilitiesState } from '../outputs/tailwind-css.ts';
import type { ResolvedConfig } from '../config/parse-config.ts';
import type { Publisher } from '../publish.ts';
import type { BuildManifest } from '../state/manifest.ts';
import type { BuildContext } from './context.ts';
import type { BuildPlan } from './plan.ts';
import { renderSite } from './render-shells.ts';
import type { SearchIndexing } from './search-indexing.ts';
import type { SitePages } from './site-pages.ts';

/** What the render step leaves for the manifest and the result. */
export interface RenderResult {
  /** Shell key → hash of its inputs, and the keys whose hash changed. */
  inputs: Record<string, string>;
  changed: string[];
  /** Hash of `docs.json` and the files it includes. */
  configHash: string;
  /** Key of the custom stylesheet linked, if any. */
  customKey: string | undefined;
  utilities: UtilitiesState;
  /** Warnings of the client modules' bundling. */
  warnings: string[];
}

/** Renders the site's shells into `publisher`; starts the search index's final part (`search.finish`). */
export async function render(ctx: BuildContext, plan: BuildPlan, site: SitePages, { publisher, search }: { publisher: Publisher; search: SearchIndexing }): Promise<RenderResult> {
  const { opts, deadline } = ctx;
  const { snapshot, config, previous, configBytes, loaded } = plan;
  const readFile = async (repoPath: string) => (snapshot.files.has(repoPath) ? Buffer.from(await snapshot.read(repoPath)).toString('utf8') : undefined);
  const islands = await publishIslands(site.ordered.filter((r) => !site.failed.has(r.summary.sourcePath)).map((r) => r.summary), publisher, readFile);
  const pageSummaries = site.ordered.map((r) => r.summary);
  const searchPages = pageSummaries.map((s) => ({ urlPath: s.urlPath, searchHash: s.searchHash }));
  // Pagefind indexes in its own process: start it now and let it run while shells render.
  search.finish(searchPages, site.byUrl, plan, publisher);

  const utilities = await utilitiesSheet(classesOfPages(pageSummaries.map((s) => s.classes)), previous?.utilities, (key) => publisher.keep(key));
  const utilitiesKey = utilities.state.key;
  if (utilitiesKey && utilities.css !== undefined) await publisher.emit(utilitiesKey, utilities.css);
  const fontsKey = await publishSiteFonts(config, publisher);
  const customKey = await publishCustomCss(snapshot, configBytes, config, previous, publisher, opts.customCss === true);
  // Files included with $ref count as docs.json: a change to one re-renders every shell.
  const configHash = loaded.files.size > 1 ? sha256(JSON.stringify([...loaded.files])) : sha256(configBytes);
  const { nav, dimensions, fallbacks } = site;
  const rendered = await renderSite(site.ordered, {
    config, configHash, nav, ...(dimensions ? { dimensions, fallbacks } : {}), searchBase: plannedSearchBase(searchPages, config.basePath, opts.searchPerShard), publisher,
    ...(fontsKey ? { fonts: `/${fontsKey}` } : {}),
    ...(utilitiesKey ? { utilities: `/${utilitiesKey}` } : {}),
    ...(customKey ? { custom: `/${customKey}` } : {}),
    islands: islands.paths,
    previousInputs: previous?.inputs ?? {}, unchanged: site.unchanged, year: opts.year ?? new Date().getUTCFullYear(), load: plan.load,
    tick: (shells) => { deadline.check(); ctx.collect(shells); }, onShell: opts.onShell,
  });
  return { inputs: rendered.inputs, changed: rendered.changed, configHash, customKey, utilities: utilities.state, warnings: islands.warnings };
}

/**
 * Publishes the custom stylesheet and returns its key: built from the repository when the plan
 * has custom CSS, else the previous build's kept as it was (quota rule 6), with a warning when
 * the repository has stylesheets the plan does not apply.
 */
async function publishCustomCss(snapshot: RepoSnapshot, configBytes: Uint8Array, config: ResolvedConfig, previous: BuildManifest | undefined, publisher: Publisher, enabled: boolean): Promise<string | undefined> {
  let raw: unknown;
  try { raw = JSON.parse(Buffer.from(configBytes).toString('utf8')); } catch { raw = undefined; }
  // Mintlify runs every .js file of the docs root on every page; sites here run none (docs/decisions/110).
  const scripts = siteFilesEnding(snapshot, '.js');
  if (scripts.length) config.warnings.push(`Custom JavaScript: ${fileList(scripts)} not run; scripts from the repository do not run on the site's pages`);
  if (!enabled) {
    const { files } = customCssFiles(snapshot, raw);
    if (files.length) {
      config.warnings.push(previous?.customCss
        ? 'Custom CSS: your plan no longer includes custom CSS; the stylesheet of the last build that had it is kept as it was, and changes to it are not applied'
        : `Custom CSS: ${fileList(files)} not applied; custom CSS needs the Pro plan`);
    }
    const kept = previous?.customCss;
    return kept && publisher.keep(kept) ? kept : undefined;
  }
  const built = await buildCustomCss(snapshot, raw, config.siteUrl);
  config.warnings.push(...built.warnings);
  if (!built.css) return undefined;
  const key = customCssKey(built.css);
  if (!publisher.keep(key)) await publisher.emit(key, built.css);
  return key;
}
