/**
 * `npm run keys -- <command>`: API keys are minted here, never through the API.
 *   create --org <handle> [--scopes a,b] [--expires <date>] [--name <label>]   prints the key once
 *   list [--org <handle>]      without --org: every organization's keys
 *   revoke <key-id>
 */
import { helpRequested, parseArgs, runCommand } from './cli-args.ts';

const USAGE = 'usage: npm run keys -- create --org <org> [--scopes a,b] [--expires <date>] [--name <label>] | list [--org <org>] | revoke <key-id>';
const HELP = `${USAGE}

  create   mints a key for an organization and prints it once (only its hash is stored);
           --scopes limits it (default: every scope, future ones included), --expires ends it
  list     lists keys (id, name, scopes, expiry), of one organization with --org, else of all
  revoke   deletes a key; it stops working within 2 seconds

Organizations: npm run orgs -- list. The commands use DATA_DIR and MONGODB_URI like npm start.`;

const argv = process.argv.slice(2);
if (helpRequested(argv)) {
  console.log(HELP);
  process.exit(0);
}

await runCommand(async () => {
  const { positional: [command, arg], flags } = parseArgs(argv);
  if (!['create', 'list', 'revoke'].includes(command)) throw new Error(USAGE);
  const { withDatabase } = await import('./with-database.ts');
  const { createApiKey } = await import('@folio/control-plane/auth/api-keys.ts');
  const { listAllKeys, listKeys, revokeKey } = await import('@folio/control-plane/admin/api-keys.ts');
  const { findOrganization } = await import('@folio/control-plane/admin/organizations.ts');
  await withDatabase(async (m) => {
    switch (command) {
      case 'create': {
        if (typeof flags.org !== 'string') throw new Error(`--org is required (npm run orgs -- list shows the organizations)\n${USAGE}`);
        const org = await findOrganization(m, flags.org);
        let expiresAt: Date | undefined;
        if (typeof flags.expires === 'string') {
          expiresAt = new Date(flags.expires);
          if (Number.isNaN(expiresAt.getTime())) throw new Error(`--expires: Unexpected "${flags.expires}"; expected an ISO date such as 2027-01-31 or 2027-01-31T12:00:00Z`);
        }
        const scopes = typeof flags.scopes === 'string' ? flags.scopes.split(',').map((s) => s.trim()).filter(Boolean) : undefined;
        const { key, id } = await createApiKey(m, { orgId: org._id, scopes, expiresAt, name: typeof flags.name === 'string' ? flags.name : '' });
        console.log(key);
        console.error(`created key ${id} for ${org.handle} (${scopes?.length ? scopes.join(', ') : 'all scopes'}${expiresAt ? `, expires ${expiresAt.toISOString()}` : ''}); it is shown only once`);
        return;
      }
      case 'list': {
        if (typeof flags.org === 'string') console.log(JSON.stringify(await listKeys(m, (await findOrganization(m, flags.org))._id), null, 2));
        else console.log(JSON.stringify(await listAllKeys(m), null, 2));
        return;
      }
      default:
        if (!arg) throw new Error(`a key id is required\n${USAGE}`);
        await revokeKey(m, arg);
        console.log(`revoked ${arg}`);
    }
  });
});
