/**
 * `npm run orgs -- <command>`: organizations and their plans.
 *   list
 *   create <handle> [--plan free|pro|team|enterprise] [--name <display name>]
 *   plan <handle> <plan> [--now]    upgrade at once; downgrade at the end of the billing period (or --now)
 *   show <handle>
 */
import { helpRequested, parseArgs, runCommand } from './cli-args.ts';

const USAGE = 'usage: npm run orgs -- list | create <org> [--plan <plan>] [--name <name>] | plan <org> <plan> [--now] | show <org>';
const HELP = `${USAGE}

  list     every organization with its plan
  create   a new organization (plans: free, pro, team, enterprise; default free)
  plan     changes the plan: an upgrade applies now, a downgrade at the end of the billing
           period (the next 1st, 00:00 UTC), or now with --now
  show     one organization's plan and pending change

API keys: npm run keys -- --help. The commands use DATA_DIR and MONGODB_URI like npm start.`;

const argv = process.argv.slice(2);
if (helpRequested(argv)) {
  console.log(HELP);
  process.exit(0);
}

await runCommand(async () => {
  const { positional: [command, handle, plan], flags } = parseArgs(argv);
  if (!['list', 'create', 'plan', 'show'].includes(command) || (command !== 'list' && !handle)) throw new Error(USAGE);
  const { withDatabase } = await import('./with-database.ts');
  const { assertPlan, changePlan, createOrganization, findOrganization, listOrganizations } = await import('@folio/control-plane/admin/organizations.ts');
  await withDatabase(async (m) => {
    switch (command) {
      case 'list':
        console.log(JSON.stringify(await listOrganizations(m), null, 2));
        return;
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
      default: {
        const org = await findOrganization(m, handle);
        console.log(JSON.stringify({ handle: org.handle, name: org.name, plan: org.plan, pending_plan: org.pending_plan, pending_plan_at: org.pending_plan_at }, null, 2));
      }
    }
  });
});
