/**
 * Limits of a build's page report (`POST /internal/v1/jobs/{id}/pages`). Each page is stored as
 * one database document, and MongoDB refuses documents over 16 MiB (`BSONObjectTooLarge`, 10334);
 * the driver cannot even encode a command much larger than that. A page over the limit is the
 * customer's content, so it is answered `413 page_too_large` naming the page, never a 500: the
 * builder turns that answer into a user error, and the deployment fails without a retry.
 */
import { calculateObjectSize } from 'bson';
import { AppError } from '../errors.ts';

/** MongoDB's largest document (`maxBsonObjectSize`). */
export const MAX_DOCUMENT_BYTES = 16 * 1024 * 1024;
/** MongoDB's error code for a document over {@link MAX_DOCUMENT_BYTES}. */
export const BSON_OBJECT_TOO_LARGE = 10334;

const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);

/** `413 page_too_large` for the page at URL path `path`, of `bytes` (when known). */
export function pageTooLarge(path: string, bytes?: number): AppError {
  const size = bytes === undefined ? '' : ` of ${mb(bytes)} MB`;
  return new AppError(413, 'page_too_large', `${path}: Unexpected page${size} (its source, HTML and search text together); expected at most ${mb(MAX_DOCUMENT_BYTES)} MB, the size of one stored page: split it into smaller pages`);
}

/**
 * Throws {@link pageTooLarge} for the first page whose stored document (the page with its
 * project, id and time) would exceed MongoDB's limit.
 */
export function checkPageSizes(projectId: string, pages: ReadonlyArray<Record<string, unknown> & { path: string }>, now: Date): void {
  for (const page of pages) {
    const bytes = calculateObjectSize({ _id: '00000000-0000-0000-0000-000000000000', project_id: projectId, ...page, updated_at: now });
    if (bytes > MAX_DOCUMENT_BYTES) throw pageTooLarge(page.path, bytes);
  }
}

/** Whether `err` is the database refusing a document over its size limit (MongoDB's error, or the driver's). */
export function isDocumentTooLarge(err: unknown): boolean {
  const e = err as { code?: unknown; codeName?: unknown; writeErrors?: Array<{ code?: unknown }> } | undefined;
  if (e?.code === BSON_OBJECT_TOO_LARGE || e?.codeName === 'BSONObjectTooLarge') return true;
  return Array.isArray(e?.writeErrors) && e.writeErrors.some((w) => w?.code === BSON_OBJECT_TOO_LARGE);
}
