/**
 * Options of `ci-deploy`, from the command line and the environment (the command line wins):
 *
 * | Flag | Variable | Default | Meaning |
 * |---|---|---|---|
 * | `--api-url` | `FOLIO_API_URL` | required | control plane origin (a trailing `/v1` is accepted) |
 * | (none: keep keys out of process lists) | `FOLIO_API_KEY` | required | API key with `deployments:trigger` |
 * | `--project` | `FOLIO_PROJECT_ID` | required | project id |
 * | `--dir` | `GITHUB_WORKSPACE` | `.` | the checked-out repository |
 * | `--commit` | | `HEAD` of the checkout, else `GITHUB_SHA` | the commit the deployment records |
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { userError } from '../errors.ts';

export const CI_USAGE = 'usage: ci-deploy [--dir <checkout>] [--project <id>] [--api-url <url>] [--commit <sha>]  (FOLIO_API_KEY in the environment)';

export interface CiOptions {
  /** Control plane origin without a trailing slash or `/v1`, e.g. `https://api.example.com`. */
  apiUrl: string;
  apiKey: string;
  projectId: string;
  /** Absolute path of the checkout. */
  dir: string;
  /** Set when given explicitly (`--commit`); otherwise resolved from the checkout. */
  commit?: string;
  /** `GITHUB_SHA`, used when the checkout is not a Git repository. */
  fallbackCommit?: string;
}

/** What `ci-deploy --help` prints. */
export const CI_HELP = `${CI_USAGE}

Builds the checked-out docs repository here (in your CI) and publishes it as a deployment of the
project, recording the commit.

  --dir <checkout>   the repository (default GITHUB_WORKSPACE, else the current folder)
  --project <id>     the project id (or FOLIO_PROJECT_ID)
  --api-url <url>    the control plane (or FOLIO_API_URL)
  --commit <sha>     the commit to record (default HEAD of the checkout, else GITHUB_SHA)
  -h, --help         show this help

FOLIO_API_KEY: an API key with the deployments:trigger scope (never on the command line).
Exit codes: 0 deployed, 1 failed or refused, 2 invalid options.`;

const SHA = /^[0-9a-f]{40}$/;

/** Reads the options; throws a user error listing every problem, one per line. */
export function parseCiOptions(argv: string[], env: Record<string, string | undefined>): CiOptions {
  let values: Record<string, string | undefined>;
  try {
    ({ values } = parseArgs({ args: argv, strict: true, options: {
      dir: { type: 'string' }, project: { type: 'string' }, 'api-url': { type: 'string' }, commit: { type: 'string' },
    } }));
  } catch (err) {
    throw userError('invalid_options', `${(err as Error).message}\n${CI_USAGE}`);
  }
  const problems: string[] = [];
  const apiUrl = (values['api-url'] ?? env.FOLIO_API_URL ?? '').trim();
  if (!apiUrl) problems.push('FOLIO_API_URL: Required; expected the control plane URL, e.g. https://api.folio.dev');
  else if (!/^https?:\/\/[^/]+/.test(apiUrl)) problems.push(`FOLIO_API_URL: Unexpected "${apiUrl}"; expected an http(s) URL`);
  const apiKey = (env.FOLIO_API_KEY ?? '').trim();
  if (!apiKey) problems.push('FOLIO_API_KEY: Required; expected an API key with the deployments:trigger scope');
  const projectId = (values.project ?? env.FOLIO_PROJECT_ID ?? '').trim();
  if (!projectId) problems.push('--project: Required; expected the project id (or FOLIO_PROJECT_ID)');
  const commit = values.commit?.trim().toLowerCase();
  if (commit !== undefined && !SHA.test(commit)) problems.push(`--commit: Unexpected "${values.commit}"; expected a full 40-character commit id`);
  const fallback = env.GITHUB_SHA?.trim().toLowerCase();
  if (problems.length) throw userError('invalid_options', `${problems.join('\n')}\n${CI_USAGE}`);
  return {
    apiUrl: apiUrl.replace(/\/+$/, '').replace(/\/v1$/, ''),
    apiKey, projectId,
    dir: path.resolve(values.dir ?? env.GITHUB_WORKSPACE ?? '.'),
    ...(commit ? { commit } : {}),
    ...(fallback && SHA.test(fallback) ? { fallbackCommit: fallback } : {}),
  };
}
