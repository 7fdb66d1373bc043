/** Finding a project on behalf of an organization: the one ownership check every adapter uses. */
import type { Models } from '../db/models/index.ts';
import { notFound } from '../errors.ts';

/** The project of `id` in the caller's organization; another organization's answers as missing. */
export async function findOwnProject(m: Models, orgId: string, id: string) {
  const project = await m.Project.findOne({ _id: id, org_id: orgId }).lean();
  if (!project) throw notFound('project');
  return project;
}
