/**
 * `build()`: one commit of a docs repository becomes its published site, incrementally. It
 * strings together the steps of pipeline/, in the order of the builder README's pipeline:
 *
 *   clone → plan → compile → render → exports → index → publish
 *
 * Each step takes the build's context and what the steps before it returned. Two outputs are
 * made across steps, fed as pages become available so results flow one way: the search index
 * (opened in plan, fed in compile, finished beside render, awaited after exports) and
 * `llms-full.txt` (fed in compile, made in exports, remembered after publish).
 */
import { buildByAudience } from './access/access-build.ts';
import { createPublisher } from './publish.ts';
import { limitsForPages } from './limits/build-limits.ts';
import { clone } from './pipeline/clone.ts';
import { closeContext, createContext, STEPS, type BuildOptions } from './pipeline/context.ts';
import { compile } from './pipeline/compile.ts';
import { makeExports } from './pipeline/exports.ts';
import { LlmsFullText } from './pipeline/llms-full.ts';
import { plan } from './pipeline/plan.ts';
import { publish } from './pipeline/publish.ts';
import { render } from './pipeline/render.ts';
import { SearchIndexing } from './pipeline/search-indexing.ts';
import { pageChanges, sitePages } from './pipeline/site-pages.ts';
import type { BuildResult } from './types.ts';

export { openSource } from './pipeline/clone.ts';
export { COLLECT_EVERY_PAGES, UPSERT_BATCH, type BuildOptions, type BuildSource, type PageChanges, type PageUpsert } from './pipeline/context.ts';
export { SEARCH_AFTER_COMPILE_FROM } from './pipeline/search-indexing.ts';

/**
 * Builds the site of one commit and publishes it incrementally: only pages whose source (or an
 * imported snippet) changed are compiled, results are cached in the store, site-wide outputs
 * (exports, feeds, sitemap, search shards) are derived from the cached per-page summaries, only
 * changed objects are uploaded, removed ones deleted afterwards, and the manifest written last.
 *
 * Timings: `render` covers the pages' assembly (navigation, moves, link check), shells, the 404
 * page, client assets and stylesheets; `exports` the Markdown exports, LLM files, feeds, sitemap,
 * robots, redirects and `public/`; `index` the search shards, which are indexed (by Pagefind's
 * own process) while shells render, so `index` overlaps them.
 *
 * @throws BuilderError `kind: 'user'` for an invalid docs.json, an unsafe path or an exceeded
 *   limit (nothing is published: the previous site stays live); `kind: 'app'` otherwise.
 */
export async function build(opts: BuildOptions): Promise<BuildResult> {
  // Once per audience when pages name who may read them (access/access-build.ts).
  return buildByAudience(opts, buildPipeline);
}

/** The pipeline of one site (one audience's). */
async function buildPipeline(opts: BuildOptions): Promise<BuildResult> {
  const ctx = createContext(opts);
  const search = new SearchIndexing(ctx);
  try {
    const snapshot = await clone(ctx);
    ctx.lap('clone');

    const planned = await plan(ctx, snapshot);
    // A large site (every release's pages kept) gets time in proportion to its pages.
    ctx.deadline.allowPages(planned.sources.length);
    // The search indexes this build writes open now, so Pagefind indexes while pages compile;
    // pages compile shard after shard, so each shard's bundle is written while the next compile.
    search.start(planned);
    const order = search.compileOrder(planned.unique);
    ctx.lap('plan');

    const llms = new LlmsFullText(ctx, planned.previous);
    const compiled = await compile(ctx, planned, order, { search, llms });
    ctx.lap('compile');

    // The site's pages in order, their navigation and links. Page changes are reported before
    // anything is uploaded: a report the control plane refuses (a page too large for the pages
    // API) fails the build while every object of the live site is still the last successful
    // build's. Shells and exports overwrite their keys in place as they are emitted, so a failure
    // after the first upload could serve a failed build's pages.
    const site = await sitePages(planned, compiled, opts.linkChecker);
    if (opts.onPages) await opts.onPages(pageChanges(planned, site));
    ctx.deadline.check();
    const publisher = createPublisher(ctx.store, planned.previous?.objects ?? {}, limitsForPages(ctx.limits, planned.sources.length));
    const rendered = await render(ctx, planned, site, { publisher, search });
    ctx.lap('render');

    const exported = await makeExports(ctx, planned, site, { publisher, llms, configHash: rendered.configHash });
    ctx.lap('exports');

    await search.done();
    ctx.reached('index');

    const stats = await publish(ctx, planned, site, { compiled, publisher, llms, rendered, exported });
    ctx.lap('publish');
    ctx.timings.total = ctx.elapsed();

    const { sources, apiRecords, api, config } = planned;
    const { errors } = compiled;
    const pagesTotal = sources.length + apiRecords.length + (api?.failures.length ?? 0);
    return {
      ...(snapshot.commit ? { commit: snapshot.commit } : {}),
      pagesTotal,
      pagesSuccess: pagesTotal - compiled.failed.size,
      pagesFailed: compiled.failed.size,
      errors: [...errors.keys()].sort().map((p) => errors.get(p)!),
      warnings: [...config.warnings, ...site.links.lines, ...rendered.warnings],
      linksChecked: site.links.checked,
      compiled: compiled.compiled,
      staticPages: compiled.staticPages,
      ...(api ? { apiPagesGenerated: api.generated } : {}),
      ...(site.moved.length ? { moved: site.moved } : {}),
      uploaded: stats.uploaded,
      deleted: stats.deleted,
      // In pipeline order (index finishes while shells render, so it would come first otherwise).
      timings: Object.fromEntries(STEPS.filter((step) => ctx.timings[step] !== undefined).map((step) => [step, ctx.timings[step]])),
    };
  } finally {
    closeContext(ctx);
    await search.discard(); // a no-op for shards written; frees Pagefind's memory after a failure
  }
}
