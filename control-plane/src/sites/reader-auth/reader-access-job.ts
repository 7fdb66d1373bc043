/**
 * What a build needs to know of reader authentication: the secret its audiences' prefixes derive
 * from (builder access/audiences.ts), when the project has reader authentication. Read at each
 * claim, like the plan's features; it keeps applying after a downgrade, as the gate does. The
 * deployment keeps whether it was built per audience (`reader_access`, live-build.ts reads it).
 */
import type { Models } from '../../db/models/index.ts';

export async function readerAccessOf(m: Models, projectId: string, deploymentId: string): Promise<{ reader_access?: { secret: string } }> {
  const project = await m.Project.findById(projectId, { reader_auth: 1, reader_access_secret: 1 }).lean();
  const on = Boolean(project?.reader_auth?.mode && project.reader_access_secret);
  await m.Deployment.updateOne({ _id: deploymentId }, { $set: { reader_access: on } });
  return on ? { reader_access: { secret: project!.reader_access_secret! } } : {};
}
