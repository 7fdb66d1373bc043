/**
 * Branch previews (pro and up): a push to a branch other than the project's synced branch, to a
 * managed repository or through a GitHub webhook, queues a preview deployment of that branch,
 * served at `{slug}--{label}.{SITES_DOMAIN}` (sites/preview-label.ts) from its own prefix
 * (sites/bucket-prefixes.ts). Deleting the branch removes the preview's files, and its host
 * answers 404. The plan is read from the one entitlement resolver when a branch is pushed: after
 * a downgrade, previews already built keep being served, new pushes build nothing.
 */
import type { ObjectStore } from '@folio/builder';
import type { Models, Preview } from '../db/models/index.ts';
import { enqueueDeployment, type PreviewTarget, type Trigger } from '../deploy/queue.ts';
import { hasFeature } from '../entitlements/resolver.ts';
import type { Deps } from '../http/route.ts';
import { previewSitePrefix, previewStatePrefix } from '../sites/bucket-prefixes.ts';
import { previewLabel, splitPreviewHost } from '../sites/preview-label.ts';
import { siteStore } from '../uploads/site-files.ts';

/** The project fields previews need. */
export interface PreviewProject { _id: string; org_id: string; slug: string }

/** The URL a preview with `label` of the project with `slug` is served at. */
export function previewUrlOf(deps: Deps, slug: string, label: string): string {
  return deps.env.siteUrlTemplate.replace('{slug}', `${slug}--${label}`);
}

/** Whether the project's organization may build previews now (the one entitlement resolver). */
export function previewsAllowed(deps: Deps, project: PreviewProject): Promise<boolean> {
  return hasFeature(deps.m, project.org_id, 'preview_deployments', deps.now());
}

/**
 * The preview of `branch`, created (or served again after a deletion) with its label; undefined
 * when the project's slug leaves no room for a label. A branch keeps its label for good.
 */
export async function ensurePreview(deps: Deps, project: PreviewProject, branch: string): Promise<PreviewTarget | undefined> {
  const { m } = deps;
  for (let attempt = 1; attempt <= 3; attempt++) {
    const known = await m.Preview.findOneAndUpdate({ project_id: project._id, branch }, { $set: { status: 'active', deleted_at: null } }, { returnDocument: 'after' }).lean();
    if (known) return { branch, label: known.label, url: previewUrlOf(deps, project.slug, known.label) };
    // Taken: held by another branch of the project, or the whole host label is another project's slug.
    const taken = async (label: string) => Boolean(await m.Preview.exists({ project_id: project._id, label }) || await m.Project.exists({ slug: `${project.slug}--${label}` }));
    const label = await previewLabel(project.slug, branch, taken);
    if (!label) return undefined;
    try {
      await m.Preview.create({ project_id: project._id, branch, label, created_at: deps.now() });
      return { branch, label, url: previewUrlOf(deps, project.slug, label) };
    } catch (err) {
      // Two pushes of the same (or a colliding) branch at once: the loser looks again.
      if ((err as { code?: unknown }).code !== 11000 || attempt === 3) throw err;
    }
  }
  return undefined;
}

/** Queues a preview deployment of `branch` at `commitSha`; undefined when no label fits (see `ensurePreview`). */
export async function queuePreview(deps: Deps, project: PreviewProject, branch: string, commitSha: string, trigger: Trigger): Promise<{ deploymentId: string; preview: PreviewTarget } | undefined> {
  const preview = await ensurePreview(deps, project, branch);
  if (!preview) return undefined;
  const d = await enqueueDeployment(deps.m, project._id, { commitSha, trigger, preview }, deps.now());
  deps.services.wakeWorkers?.();
  return { deploymentId: d._id, preview };
}

async function removePrefix(store: ObjectStore, prefix: string): Promise<void> {
  const keys = await store.list(prefix);
  if (keys.length) await store.delete(keys.map((k) => (k.startsWith(prefix) ? k : prefix + k)));
}

/**
 * Removes the preview of a deleted branch: marks it deleted first (its host answers 404 at once
 * and a build still running can publish nothing more, see build-api/ci-api.ts), ends its queued and
 * building deployments, then deletes its files and its state. True when there was a preview to remove.
 */
export async function deletePreview(deps: Deps, projectId: string, branch: string): Promise<boolean> {
  const p = await deps.m.Preview.findOneAndUpdate({ project_id: projectId, branch, status: 'active' }, { $set: { status: 'deleted', deleted_at: deps.now() } }).lean() as Preview | null;
  if (!p) return false;
  // A build still running loses its lease with this: its next report is refused as `lease_lost`.
  await deps.m.Deployment.updateMany({ project_id: projectId, preview_label: p.label, status: { $in: ['queued', 'building'] } }, {
    $set: {
      status: 'failed', finished_at: deps.now(), error: `Branch ${branch} was deleted; its preview was removed`,
      lease_owner: null, lease_expires_at: null, token_hash: null, token_expires_at: null,
    },
  });
  const store = siteStore(deps);
  await removePrefix(store, previewSitePrefix(projectId, p.label));
  await removePrefix(store, previewStatePrefix(projectId, p.label));
  return true;
}

/**
 * Whether `slug` is the host label of a branch preview (`{slug}--{label}` of an existing project
 * with a preview of that label, deleted ones included, since a branch keeps its label): such a
 * slug is refused as taken, so a new project can never take over a preview's address. A slug
 * without `--` never is.
 */
export async function isPreviewHost(m: Models, slug: string): Promise<boolean> {
  const split = splitPreviewHost(slug);
  if (!split) return false;
  const owner = await m.Project.findOne({ slug: split.slug }, { _id: 1 }).lean();
  return Boolean(owner && await m.Preview.exists({ project_id: owner._id, label: split.label }));
}
