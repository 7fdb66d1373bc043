/**
 * `npm run orgs -- <command>`: organizations and their plans.
 *   create <handle> [--plan free|pro|team|enterprise] [--name <display name>]
 *   plan <handle> <plan> [--now]    upgrade at once; downgrade at the end of the billing period (or --now)
 *   show <handle>
 */
import { assertPlan, changePlan, createOrganization, findOrganization } from '@folio/control-plane';
import { parseArgs, runCommand } from './cli-args.ts';
import { withDatabase } from './with-database.ts';

const USAGE = 'usage: npm run orgs -- create <org> [--plan <plan>] [--name <name>] | plan <org> <plan> [--now] | show <org>';

await runCommand(async () => {
  const { positional: [command, handle, plan], flags } = parseArgs(process.argv.slice(2));
  if (!handle) throw new Error(USAGE);
  await withDatabase(async (m) => {
    switch (command) {
      case 'create': {
        const org = await createOrganization(m, handle, assertPlan(typeof flags.plan === 'string' ? flags.plan : 'free'), typeof flags.name === 'string' ? flags.name : handle);
        console.log(`created organization ${org.handle} on the ${org.plan} plan`);
        return;
      }
      case 'plan': {
        if (!plan) throw new Error(USAGE);
        const change = await changePlan(m, handle, assertPlan(plan), new Date(), flags.now === true);
        console.log(change.effective === 'now'
          ? `${handle} is now on the ${change.org.plan} plan`
          : `${handle} moves to the ${plan} plan at ${change.effective.toISOString()} (end of the billing period); it stays on ${change.org.plan} until then`);
        return;
      }
      case 'show': {
        const org = await findOrganization(m, handle);
        console.log(JSON.stringify({ handle: org.handle, name: org.name, plan: org.plan, pending_plan: org.pending_plan, pending_plan_at: org.pending_plan_at }, null, 2));
        return;
      }
      default:
        throw new Error(USAGE);
    }
  });
});
