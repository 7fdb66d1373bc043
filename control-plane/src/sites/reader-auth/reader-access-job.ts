/**
 * What a build needs to know of reader authentication: the secret its audiences' prefixes derive
 * from (builder access/audiences.ts), when the project has reader authentication. Read at each
 * claim, like the plan's features; it keeps applying after a downgrade, as the gate does.
 */
import type { Models } from '../../db/models/index.ts';

export async function readerAccessOf(m: Models, projectId: string): Promise<{ reader_access?: { secret: string } }> {
  const project = await m.Project.findById(projectId, { reader_auth: 1, reader_access_secret: 1 }).lean();
  return project?.reader_auth?.mode && project.reader_access_secret ? { reader_access: { secret: project.reader_access_secret } } : {};
}
