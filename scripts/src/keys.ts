/**
 * `npm run keys -- <command>`: API keys are minted here, never through the API.
 *   create --org <handle> [--scopes a,b] [--expires <date>] [--name <label>]   prints the key once
 *   list --org <handle>
 *   revoke <key-id>
 */
import { createApiKey, findOrganization, listKeys, revokeKey } from '@folio/control-plane';
import { parseArgs, runCommand } from './cli-args.ts';
import { withDatabase } from './with-database.ts';

const USAGE = 'usage: npm run keys -- create --org <org> [--scopes a,b] [--expires <date>] [--name <label>] | list --org <org> | revoke <key-id>';

await runCommand(async () => {
  const { positional: [command, arg], flags } = parseArgs(process.argv.slice(2));
  await withDatabase(async (m) => {
    switch (command) {
      case 'create': {
        if (typeof flags.org !== 'string') throw new Error(`--org is required\n${USAGE}`);
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
        if (typeof flags.org !== 'string') throw new Error(`--org is required\n${USAGE}`);
        const org = await findOrganization(m, flags.org);
        console.log(JSON.stringify(await listKeys(m, org._id), null, 2));
        return;
      }
      case 'revoke':
        if (!arg) throw new Error(`a key id is required\n${USAGE}`);
        await revokeKey(m, arg);
        console.log(`revoked ${arg}`);
        return;
      default:
        throw new Error(USAGE);
    }
  });
});
