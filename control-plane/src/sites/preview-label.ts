/**
 * The host label of a branch preview: `{slug}--{label}.{SITES_DOMAIN}`.
 *
 * The branch is lower-cased, every run of characters other than `a-z0-9` becomes one `-`, and
 * leading and trailing `-` are trimmed. The label is cut so that the whole host label
 * (`{slug}--{label}`) stays within DNS's 63 characters; a cut label, an empty one (a branch of
 * punctuation only) and one that another branch of the project already holds get a `-` and the
 * first 6 hex digits of the branch name's SHA-256 instead of their tail. A label therefore never
 * contains `--`, which is what makes a preview host unambiguous (see `splitPreviewHost`).
 */
import { createHash } from 'node:crypto';

/** Longest DNS label. */
const MAX_LABEL = 63;
/** `-` and 6 hex digits. */
const HASH_SUFFIX = 7;
/** What a preview label looks like: DNS label characters, single hyphens between runs. */
export const PREVIEW_LABEL = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** The branch with every run of characters other than `a-z0-9` turned into one `-`, trimmed. */
export function sanitizeBranch(branch: string): string {
  return branch.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');
}

/** First 6 hex digits of the branch name's SHA-256: short, stable, and different for different branches in practice. */
export const branchHash = (branch: string): string => createHash('sha256').update(branch).digest('hex').slice(0, 6);

/** Room left for the label beside `{slug}--`; undefined when not even a hashed label fits. */
export function labelRoom(slug: string): number | undefined {
  const room = MAX_LABEL - slug.length - 2;
  return room >= HASH_SUFFIX + 1 ? room : undefined;
}

/**
 * The label of `branch` for a project with `slug`; `taken(label)` says whether the label is
 * unavailable (held by another branch of the project, or `{slug}--{label}` is another project's
 * slug). Undefined when the slug leaves no room for a label (slugs over 53 characters).
 */
export async function previewLabel(slug: string, branch: string, taken: (label: string) => Promise<boolean>): Promise<string | undefined> {
  const room = labelRoom(slug);
  if (room === undefined) return undefined;
  const base = sanitizeBranch(branch);
  if (base && base.length <= room && !await taken(base)) return base;
  const head = base.slice(0, room - HASH_SUFFIX).replace(/-+$/, '');
  return `${head ? `${head}-` : ''}${branchHash(branch)}`;
}

/**
 * Splits the first label of a site host into project slug and preview label at its last `--`.
 * A preview label never contains `--`, so the split is the only one possible; undefined when
 * there is no `--` or the label part is not a preview label.
 */
export function splitPreviewHost(hostLabel: string): { slug: string; label: string } | undefined {
  const at = hostLabel.lastIndexOf('--');
  if (at <= 0) return undefined;
  const slug = hostLabel.slice(0, at);
  const label = hostLabel.slice(at + 2);
  return PREVIEW_LABEL.test(label) ? { slug, label } : undefined;
}
