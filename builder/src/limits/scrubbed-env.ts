/**
 * The environment customer code runs with: only what Node and Git need to work, nothing that could
 * hold a secret (tokens, cloud credentials, database URLs). Names are copied from `env` when set.
 */
export const SAFE_ENV_NAMES = ['PATH', 'HOME', 'LANG', 'LC_ALL', 'TZ', 'TMPDIR', 'NODE_ENV'] as const;

/** A copy of `env` keeping only `SAFE_ENV_NAMES`. */
export function scrubbedEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const name of SAFE_ENV_NAMES) if (env[name] !== undefined) out[name] = env[name];
  return out;
}
