/**
 * Data written before the fresh-queued index existed may hold several fresh queued deployments
 * of one project (concurrent triggers could each insert one). Building the unique index over them
 * would fail and stop the control plane at start-up, so they are folded together first, the way
 * a join would have done it: the oldest keeps its id and takes the newest commit; the others end
 * `failed` with a reason naming the deployment that carries their sync.
 */
import type { Model } from 'mongoose';
import { FRESH_QUEUED, type Deployment } from './models/deployment.ts';

interface Group { _id: { project: string; preview: string | null }; ids: string[]; shas: (string | null)[] }

/** Folds duplicate fresh queued deployments per project; returns how many were folded away. */
export async function collapseFreshQueued(m: { Deployment: Model<Deployment> }, now: Date): Promise<number> {
  const groups = await m.Deployment.aggregate<Group>([
    { $match: FRESH_QUEUED },
    { $sort: { started_at: 1, _id: 1 } },
    { $group: { _id: { project: '$project_id', preview: { $ifNull: ['$preview_label', null] } }, ids: { $push: '$_id' }, shas: { $push: '$commit_sha' } } },
    { $match: { 'ids.1': { $exists: true } } },
  ]);
  let folded = 0;
  for (const g of groups) {
    const [keep, ...rest] = g.ids;
    const newest = [...g.shas].reverse().find((sha) => typeof sha === 'string' && sha.length > 0);
    if (newest) await m.Deployment.updateOne({ _id: keep }, { $set: { commit_sha: newest } });
    const r = await m.Deployment.updateMany({ _id: { $in: rest }, ...FRESH_QUEUED }, {
      $set: { status: 'failed', finished_at: now, error: `Joined deployment ${keep}, queued earlier for the same ${g._id.preview ? `preview (${g._id.preview})` : 'project'}` },
    });
    folded += r.modifiedCount;
  }
  return folded;
}
