/**
 * A build per audience (access/audiences.ts). When no page names an access key and reader
 * authentication is off, this is the one build it always was. Otherwise the site's own prefix
 * receives the site of its audience's pages (the `public` pages with reader authentication, the
 * pages without `groups` without it), and each other audience a complete site of its own pages
 * under `_folio/access/<key>/`, a key derived from the site's secret; the site server serves such
 * a prefix only to a reader whose session carries that audience. Each audience's build is an
 * ordinary incremental build with its own manifest and state; the page cache (content-addressed)
 * is shared, so a page is compiled once whatever number of audiences read it. Audiences that
 * disappear are deleted. Only the site's own build reports its pages (`onPages`): the pages API,
 * and what the assistant and MCP read from it, hold no gated page.
 */
import { CONFIG_FILE } from '../config/parse-config.ts';
import { planSite } from '../pipeline/site-plan.ts';
import { openSource } from '../pipeline/clone.ts';
import type { BuildOptions } from '../pipeline/context.ts';
import { CACHE_PREFIX, STATE_PREFIX } from '../state/manifest.ts';
import type { ObjectStore } from '../store/object-store.ts';
import type { BuildResult } from '../types.ts';
import { ACCESS_PREFIX, audiencePrefix, siteAudiences, type Audience } from './audiences.ts';
import { audienceSnapshot } from './audience-snapshot.ts';
import { AccessIndex } from './access-index.ts';

/** The state object listing the audiences' prefixes the last build published. */
export const AUDIENCES_KEY = `${STATE_PREFIX}audiences.json`;

/** The store of an audience's site: its own keys under `prefix`, the page cache shared with the site's. */
function audienceStore(store: ObjectStore, prefix: string): ObjectStore {
  const at = (key: string) => (key.startsWith(CACHE_PREFIX) ? key : prefix + key);
  return {
    put: (key, bytes, o) => store.put(at(key), bytes, o),
    putStream: (key, body, o) => store.putStream(at(key), body, o),
    get: (key) => store.get(at(key)),
    head: (key) => store.head(at(key)),
    list: async (sub) => (sub.startsWith(CACHE_PREFIX) ? store.list(sub) : (await store.list(prefix + sub)).map((k) => k.slice(prefix.length))),
    delete: (keys) => store.delete(keys.map(at)),
    copy: (from, to) => store.copy(at(from), at(to)),
  };
}

async function readPublished(store: ObjectStore): Promise<string[]> {
  const bytes = await store.get(AUDIENCES_KEY);
  if (!bytes) return [];
  try {
    const list = JSON.parse(Buffer.from(bytes).toString('utf8')) as unknown;
    return Array.isArray(list) ? list.filter((p): p is string => typeof p === 'string' && p.startsWith(ACCESS_PREFIX)) : [];
  } catch {
    return [];
  }
}

/** The results of an audience's build folded into the site's: every page counted once. */
function fold(site: BuildResult, others: BuildResult[], gatedPages: number): BuildResult {
  const errors = new Map(site.errors.map((e) => [e.sourcePath, e]));
  for (const r of others) for (const e of r.errors) if (!errors.has(e.sourcePath)) errors.set(e.sourcePath, e);
  const failed = errors.size;
  const total = site.pagesTotal + gatedPages;
  return {
    ...site,
    pagesTotal: total,
    pagesSuccess: total - failed,
    pagesFailed: failed,
    errors: [...errors.values()].sort((a, b) => a.sourcePath.localeCompare(b.sourcePath)),
    warnings: [...new Set([site.warnings, ...others.map((r) => r.warnings)].flat())],
    compiled: site.compiled + others.reduce((n, r) => n + r.compiled, 0),
    uploaded: site.uploaded + others.reduce((n, r) => n + r.uploaded, 0),
    deleted: site.deleted + others.reduce((n, r) => n + r.deleted, 0),
    // Every audience's steps count: the build took them all, one audience after another.
    timings: Object.fromEntries(Object.entries(site.timings).map(([step, ms]) => [step, others.reduce((n, r) => n + (r.timings[step as keyof typeof r.timings] ?? 0), ms ?? 0)])),
  };
}

/**
 * Builds `opts` with `buildOne` (the pipeline of build.ts) once per audience.
 *
 * @throws BuilderError as `build` does; an audience's failure fails the build.
 */
export async function buildByAudience(opts: BuildOptions, buildOne: (o: BuildOptions) => Promise<BuildResult>): Promise<BuildResult> {
  const opened = performance.now();
  const snapshot = await openSource(opts.source);
  // Fetching a remote is the clone step's work, though done before the pipeline starts.
  const fetchMs = Math.round(performance.now() - opened);
  const source = { kind: 'snapshot' as const, snapshot };
  const timed = (r: BuildResult): BuildResult => ({ ...r, timings: { ...r.timings, clone: (r.timings.clone ?? 0) + fetchMs, total: (r.timings.total ?? 0) + fetchMs } });
  const readerAuth = opts.readerAccess !== undefined;
  let plan;
  try {
    plan = await planSite(snapshot, { siteUrl: opts.siteUrl, basePath: opts.basePath ?? '' });
  } catch {
    return timed(await buildOne({ ...opts, source })); // the pipeline reports the configuration's problem itself
  }
  const index = await AccessIndex.load(opts.store);
  const audiences = await siteAudiences(snapshot, plan, readerAuth, index);
  await index.save(opts.store, new Set(plan.layout.pages.map((p) => snapshot.files.get(p)).filter((blob) => blob !== undefined)));
  const published = await readPublished(opts.store);
  if (!audiences) {
    const result = await buildOne({ ...opts, source });
    if (published.length) {
      await dropAudiences(opts.store, published);
      await opts.store.put(AUDIENCES_KEY, Buffer.from('[]'), { contentType: 'application/json' });
    }
    return timed(result);
  }
  const { contentRoot } = plan.config;
  const basePath = opts.basePath ?? '';
  const configFiles = [...plan.loaded.files.keys()].filter((f) => f !== CONFIG_FILE);
  const see = (audience: Audience) => audienceSnapshot(snapshot, plan.layout.pages, audience, contentRoot, configFiles, basePath);
  const site = await buildOne({ ...opts, source: { kind: 'snapshot', snapshot: await see(audiences.site) } });
  const others: BuildResult[] = [];
  const prefixes: string[] = [];
  for (const audience of audiences.variants) {
    const prefix = audiencePrefix(opts.readerAccess!.secret, audience.name);
    prefixes.push(prefix);
    others.push(await buildOne({
      ...opts, source: { kind: 'snapshot', snapshot: await see(audience) }, store: audienceStore(opts.store, prefix),
      // Reported and remembered for the site's own build only (see the module comment).
      onPages: undefined, onShell: undefined, linkChecker: undefined, pageMemory: undefined,
    }));
  }
  await dropAudiences(opts.store, published.filter((p) => !prefixes.includes(p)));
  await opts.store.put(AUDIENCES_KEY, Buffer.from(JSON.stringify(prefixes)), { contentType: 'application/json' });
  const gated = plan.layout.pages.length - audiences.site.pages.size;
  return timed(fold(site, others, gated));
}

/** Deletes every object of the audiences' prefixes (their own state included). */
async function dropAudiences(store: ObjectStore, prefixes: readonly string[]): Promise<void> {
  for (const prefix of prefixes) {
    const keys = await store.list(prefix);
    for (let i = 0; i < keys.length; i += 1000) await store.delete(keys.slice(i, i + 1000));
  }
}
