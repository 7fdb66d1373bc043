/**
 * The publish step: everything is emitted, the uploads may still run. The builder's state is
 * written meanwhile: page summaries and moves describe pages by their cache keys and paths, true
 * whether or not this publish completes, and the manifest's buckets are named by nothing until
 * the manifest itself, written after the uploads (and the deletion of what disappeared).
 */
import { TEMPLATE_VERSION } from '@folio/site-template';
import { COMPILER_VERSION } from '../compile/index.ts';
import { writeMoves } from '../outputs/page-moves.ts';
import type { Publisher, PublishStats } from '../publish.ts';
import { manifestFiles, writeManifest, type BuildManifest } from '../state/manifest.ts';
import { writeSummaries } from '../state/page-summaries.ts';
import type { BuildContext } from './context.ts';
import type { CompileResult } from './compile.ts';
import type { ExportsResult } from './exports.ts';
import type { LlmsFullText } from './llms-full.ts';
import type { BuildPlan } from './plan.ts';
import type { RenderResult } from './render.ts';
import type { SitePages } from './site-pages.ts';

/** What the publish step needs from the steps before it. */
export interface PublishInputs { compiled: CompileResult; publisher: Publisher; llms: LlmsFullText; rendered: RenderResult; exported: ExportsResult }

/** Waits for the uploads and writes the builder's state; returns what was uploaded and deleted. */
export async function publish(ctx: BuildContext, plan: BuildPlan, site: SitePages, { compiled, publisher, llms, rendered, exported }: PublishInputs): Promise<PublishStats> {
  const { store } = ctx;
  const { snapshot, previous, summaries } = plan;
  const { objects, changed: objectsChanged } = publisher.seal();
  const uploads = publisher.finish();
  uploads.catch(() => undefined); // awaited by the manifest's write, and below
  // Written while the manifest's buckets are: the manifest takes the summaries' hash once known.
  const summariesWritten = Promise.all([
    writeSummaries(store, site.nextSummaries, compiled.failures, { stored: summaries.stored, hash: previous?.summariesHash }),
    writeMoves(store, site.moves, plan.previousMoves),
  ]);
  summariesWritten.catch(() => undefined); // awaited by the manifest's write
  const files = manifestFiles(snapshot.files, previous?.files);
  const manifest: BuildManifest = {
    version: 1, commit: snapshot.commit, configHash: rendered.configHash, compilerVersion: COMPILER_VERSION, templateVersion: TEMPLATE_VERSION,
    files: files.files, pages: site.manifestPages, inputs: rendered.inputs, objects, exportsHash: exported.exportsHash,
    llmsBytes: llms.index(site.byUrl),
    ...(rendered.customKey ? { customCss: rendered.customKey } : {}),
    utilities: rendered.utilities,
  };
  await writeManifest(store, manifest, previous, {
    changed: { files: files.changed, pages: site.pagesChanged, inputs: rendered.changed, objects: objectsChanged },
    ready: uploads, fields: summariesWritten.then(([summariesHash]) => ({ summariesHash })),
  });
  const stats = await uploads;
  llms.published(stats, exported.siteWide);
  return stats;
}
