/**
 * Push intents: a push to a managed repository records the branches as they were before Git
 * moves any of them, and removes the record once its deployments are queued. A record left
 * behind is a push whose process died in between (interrupted-pushes.ts finishes it).
 */
import type { Deps } from '../http/route.ts';

/** Writes the intent of a push about to move branches; the answer removes it (once, however often called). */
export async function recordPushIntent(deps: Deps, projectId: string, before: Map<string, string>): Promise<() => Promise<void>> {
  const intent = await deps.m.PushIntent.create({ project_id: projectId, before: Object.fromEntries(before), started_at: deps.now() });
  let removed: Promise<unknown> | undefined;
  return async () => { await (removed ??= deps.m.PushIntent.deleteOne({ _id: intent._id }).exec()); };
}
