/**
 * Environment configuration, parsed once at start-up. Every variable, its default and meaning is
 * listed in docs/configuration.md. On error, every issue is printed and the process exits 1.
 */
import { createPrivateKey } from 'node:crypto';
import fs from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';

const port = (def: number) => z.coerce.number().int().min(0).max(65535).default(def);
const optional = z.string().trim().min(1).optional();

/** A comma-separated list of `host:port` pairs, lower-cased. */
function hostPortList(example: string) {
  return z.string().trim().default('').transform((value, ctx) => {
    const list = value.split(',').map((h) => h.trim().toLowerCase()).filter(Boolean);
    const bad = list.find((h) => !/^(\[[0-9a-f:.]+\]|[a-z0-9.-]+):\d{1,5}$/.test(h));
    if (bad === undefined) return list;
    ctx.addIssue({ code: 'custom', message: `Unexpected ${JSON.stringify(bad)}; expected host:port pairs separated by commas, e.g. ${example}` });
    return z.NEVER;
  });
}

export const envSchema = z.object({
  API_HOST: z.string().default('127.0.0.1'),
  API_PORT: port(4000),
  /** Public base of the API as clients see it; defaults to http://API_HOST:API_PORT. */
  PUBLIC_API_URL: optional,
  SITE_HOST: z.string().default('127.0.0.1'),
  SITE_PORT: port(4100),
  /** Sites are served at {slug}.{SITES_DOMAIN}; `localhost` works in browsers with no DNS set-up. */
  SITES_DOMAIN: z.string().default('localhost'),
  /** Where durable data lives when no external services are configured. */
  DATA_DIR: z.string().default('./data'),
  /** Real MongoDB; when unset an embedded wire-compatible server runs in-process on DATA_DIR/db. */
  MONGODB_URI: optional,
  /** S3-compatible object storage; when S3_BUCKET is unset sites are stored under DATA_DIR/sites. */
  S3_BUCKET: optional,
  S3_ENDPOINT: optional,
  S3_REGION: z.string().default('us-east-1'),
  S3_ACCESS_KEY_ID: optional,
  S3_SECRET_ACCESS_KEY: optional,
  S3_FORCE_PATH_STYLE: z.enum(['true', 'false']).default('false').transform((v) => v === 'true'),
  /** Link shown in errors that ask for a plan upgrade. */
  UPGRADE_URL: z.string().url().default('https://folio.dev/pricing'),
  /** Number of builder workers `npm start` runs in-process. */
  BUILDER_WORKERS: z.coerce.number().int().min(0).max(16).default(1),
  LOG_LEVEL: z.enum(['silent', 'error', 'info', 'debug']).default('info'),
  /** `text` lines for a terminal, or `json` lines (one object per event) for a log pipeline. */
  LOG_FORMAT: z.enum(['text', 'json']).default('text'),
  /** How long a `git push` waits for its deployment to finish to print the outcome (0: do not wait). */
  PUSH_WAIT_MS: z.coerce.number().int().min(0).max(600_000).default(20_000),
  /** The committer of the web editor's commits (the member who publishes is the author). */
  EDITOR_COMMITTER_NAME: z.string().trim().min(1).max(200).default('Folio'),
  EDITOR_COMMITTER_EMAIL: z.string().trim().email().max(200).default('noreply@folio.dev'),
  /** Origin builder workers reach this control plane at (managed Git); default the API's own address. */
  INTERNAL_API_URL: z.string().url().optional(),
  /** Shared secret builder workers present to claim jobs; `npm start` makes one when unset. */
  WORKER_SECRET: optional,
  /** How a site's public URL is formed; `{slug}` is replaced. Default http://{slug}.SITES_DOMAIN:SITE_PORT (with SITE_PORT=0, the port the site server got) */
  SITE_URL_TEMPLATE: optional,
  /** How long a worker's lease on a build lasts without a heartbeat; a dead worker's job is taken over after it. */
  BUILD_LEASE_MS: z.coerce.number().int().min(1000).max(600_000).default(30_000),
  /** When set, `GET /metrics` answers only `Authorization: Bearer <METRICS_TOKEN>`; unset, it is open. */
  METRICS_TOKEN: optional,
  /**
   * The platform's GitHub App (github/app-config.ts). Customers connect their own repositories
   * only through installations of it; with any of ID, private key, slug, client id and secret
   * unset, connecting GitHub repositories is off (there is no platform-wide token).
   */
  GITHUB_APP_ID: z.string().trim().regex(/^\d+$/, { error: 'must be the numeric App ID' }).optional(),
  /** The App's private key: PEM text (`\n` escapes allowed) or the path of a .pem file. */
  GITHUB_APP_PRIVATE_KEY: z.string().trim().min(1).optional().transform((value, ctx) => {
    if (value === undefined) return undefined;
    const pem = readPrivateKey(value);
    if (typeof pem === 'string') return pem;
    ctx.addIssue({ code: 'custom', message: pem.error });
    return z.NEVER;
  }),
  /** The App's URL name: installs start at `<GITHUB_BASE_URL>/apps/<slug>/installations/new`. */
  GITHUB_APP_SLUG: z.string().trim().regex(/^[a-z0-9][a-z0-9-]*$/i, { error: 'must be the App\'s slug (its URL name)' }).optional(),
  /** OAuth client id and secret of the App: the setup callback checks that the installing user can see the installation. */
  GITHUB_APP_CLIENT_ID: optional,
  GITHUB_APP_CLIENT_SECRET: optional,
  /** GitHub's REST API; GitHub Enterprise Server uses `https://<host>/api/v3`. */
  GITHUB_API_URL: z.string().url().default('https://api.github.com'),
  /** Secret of the App's webhook (`POST /v1/webhooks/github`); unset: the webhook answers 503 `webhooks_disabled`. */
  GITHUB_WEBHOOK_SECRET: optional,
  /** GitHub's web host: repositories are cloned from `<base>/<owner>/<name>.git`, and install and OAuth links start here. */
  GITHUB_BASE_URL: z.string().url().default('https://github.com'),
  /** OpenAI-compatible chat completions base URL the site assistant answers with; unset: answers quote the best excerpts. */
  ASSISTANT_LLM_URL: z.string().url().optional(),
  /** Bearer key for ASSISTANT_LLM_URL (never sent anywhere else, never in a prompt). */
  ASSISTANT_LLM_KEY: optional,
  /** Model name sent to ASSISTANT_LLM_URL. */
  ASSISTANT_LLM_MODEL: z.string().trim().min(1).default('gpt-4o-mini'),
  /** An answer whose first token takes longer than this ends with `upstream_timeout`. */
  ASSISTANT_LLM_TIMEOUT_MS: z.coerce.number().int().min(100).max(300_000).default(20_000),
  /**
   * `host:port` pairs of self-hosted model endpoints on a private network (Ollama, vLLM, llama.cpp's
   * server) that organizations' model settings may use, comma-separated, e.g. `ollama:11434`;
   * default none: a base URL must resolve to public addresses only (docs/ai-models.md).
   */
  AI_MODEL_PRIVATE_HOSTS: hostPortList('ollama:11434'),
  /**
   * `host:port` pairs on a private network that customer-given URLs may reach (webhook and chat
   * endpoints, logos, identity providers), comma-separated, e.g. `hooks.internal:8080`; default
   * none: such URLs must resolve to public addresses only. For operators whose receivers live
   * inside their own network.
   */
  OUTBOUND_PRIVATE_HOSTS: hostPortList('hooks.internal:8080'),
  /** Days raw analytics events are kept before they expire. */
  ANALYTICS_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(400),
  /** `true` when a CDN or load balancer in front of the site server sets X-Forwarded-For (its first hop is then the client). */
  TRUST_PROXY: z.enum(['true', 'false']).default('false').transform((v) => v === 'true'),
  /** Bearer token of the CDN log ingestion endpoint (`POST /internal/v1/analytics/logs`); unset: the endpoint answers 503. */
  ANALYTICS_INGEST_TOKEN: z.string().trim().min(16).optional(),
  /** Public origin of the dashboard (e.g. https://app.folio.dev); default the API's own origin. Links it prints (owner claim, invitations) start with it. */
  DASHBOARD_URL: z.string().url().optional(),
  /** A dashboard session ends after this many hours without a request (sliding expiry). */
  SESSION_IDLE_HOURS: z.coerce.number().int().min(1).max(24 * 90).default(24 * 7),
  /** A dashboard session ends this many days after sign-in, however active. */
  SESSION_MAX_DAYS: z.coerce.number().int().min(1).max(365).default(30),
  /** DNS servers custom-domain TXT checks ask, comma-separated `host` or `host:port`; default the system's resolvers. */
  DNS_RESOLVER: optional,
  /**
   * Where customers point a custom subdomain (its CNAME target), shown in the dashboard; default
   * SITES_DOMAIN. It must resolve to the site server (or the edge in front of it).
   */
  DOMAIN_CNAME_TARGET: z.string().trim().toLowerCase().regex(/^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/, { error: 'must be a hostname such as sites.example.com' }).optional(),
  /** The site server's public IPv4 and IPv6 addresses, comma-separated: the A/AAAA records an apex domain needs, shown in the dashboard; default none (the dashboard then asks for an ALIAS record). */
  DOMAIN_APEX_ADDRESSES: z.string().trim().default('').transform((value, ctx) => {
    const list = value.split(',').map((a) => a.trim()).filter(Boolean);
    const bad = list.find((a) => isIP(a) === 0);
    if (bad === undefined) return list;
    ctx.addIssue({ code: 'custom', message: `Unexpected ${JSON.stringify(bad)}; expected IPv4 or IPv6 addresses separated by commas` });
    return z.NEVER;
  }),
  /**
   * The ACME directory certificates for verified custom domains are ordered from (RFC 8555), e.g.
   * https://acme-v02.api.letsencrypt.org/directory. Unset: the site server orders none and has no
   * HTTPS listener (an edge such as Caddy in front terminates TLS; docker/Caddyfile).
   */
  ACME_DIRECTORY_URL: z.string().trim().refine(isHttpsUrl, { error: 'must be an https:// URL (an ACME directory)' }).optional(),
  /** Contact email given to the ACME CA (expiry and policy notices). */
  ACME_CONTACT_EMAIL: z.string().trim().email({ error: 'must be an email address' }).optional(),
  /** PEM text or file path of the CA that signed the ACME directory's own HTTPS certificate (a test CA such as Pebble); default the system's roots. */
  ACME_DIRECTORY_CA: z.string().trim().min(1).optional().transform((value, ctx) => {
    if (value === undefined) return undefined;
    const pem = value.includes('-----BEGIN') ? value.replace(/\\n/g, '\n') : readFileOrUndefined(value);
    if (pem?.includes('-----BEGIN CERTIFICATE-----')) return pem;
    ctx.addIssue({ code: 'custom', message: 'Unexpected value that is neither PEM certificate text nor a readable certificate file' });
    return z.NEVER;
  }),
  /** A certificate is renewed once it expires within this many days. */
  ACME_RENEW_WITHIN_DAYS: z.coerce.number().int().min(1).max(60).default(30),
  /** How often certificates due for an order or a renewal are looked for. */
  ACME_CHECK_INTERVAL_MS: z.coerce.number().int().min(1000).max(86_400_000).default(3_600_000),
  /** The site server's HTTPS listener (custom domains' certificates by SNI), started when ACME_DIRECTORY_URL is set; 0 takes a free port. */
  SITE_HTTPS_PORT: port(4443),
  /** The HTTPS port visitors reach (when a proxy maps 443 to SITE_HTTPS_PORT); default SITE_HTTPS_PORT. HTTP redirects to it. */
  SITE_HTTPS_PUBLIC_PORT: z.coerce.number().int().min(1).max(65535).optional(),
}).superRefine((env, ctx) => {
  const app = ['GITHUB_APP_ID', 'GITHUB_APP_PRIVATE_KEY', 'GITHUB_APP_SLUG', 'GITHUB_APP_CLIENT_ID', 'GITHUB_APP_CLIENT_SECRET'] as const;
  const missing = app.filter((k) => env[k] === undefined);
  if (missing.length > 0 && missing.length < app.length) {
    ctx.addIssue({ code: 'custom', path: [missing[0]], message: `Required with the other GITHUB_APP_* variables; set ${missing.join(', ')}, or none of them to turn GitHub off` });
  }
});

/** Whether `value` is an absolute https:// URL. */
function isHttpsUrl(value: string): boolean {
  try { return new URL(value).protocol === 'https:'; } catch { return false; }
}

/** A file's text, or undefined when it cannot be read. */
function readFileOrUndefined(file: string): string | undefined {
  try { return fs.readFileSync(file, 'utf8'); } catch { return undefined; }
}

/** PEM text from a PEM value or a file path, checked to be a private key; or why not. */
function readPrivateKey(value: string): string | { error: string } {
  let pem = value.includes('-----BEGIN') ? value.replace(/\\n/g, '\n') : undefined;
  if (pem === undefined) {
    try {
      pem = fs.readFileSync(value, 'utf8');
    } catch {
      return { error: 'Unexpected value that is neither PEM text nor a readable file; expected the App\'s private key' };
    }
  }
  try {
    createPrivateKey(pem);
    return pem;
  } catch {
    return { error: 'Unexpected text that is not a PEM private key; expected the key GitHub generated for the App' };
  }
}

export type Env = z.infer<typeof envSchema> & { dataDir: string; publicApiUrl: string; siteUrlTemplate: string };

/** The dashboard's public origin, without a trailing slash: DASHBOARD_URL, or the API's origin. */
export function dashboardOrigin(env: Env): string {
  return (env.DASHBOARD_URL ?? new URL(env.publicApiUrl).origin).replace(/\/+$/, '');
}

/** Parses `source` (default `process.env`); throws an Error listing every issue. */
export function parseEnv(source: Record<string, string | undefined> = process.env): Env {
  const result = envSchema.safeParse(source);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid environment:\n${lines.join('\n')}`);
  }
  const env = result.data;
  return {
    ...env,
    dataDir: path.resolve(env.DATA_DIR),
    publicApiUrl: env.PUBLIC_API_URL ?? `http://${env.API_HOST}:${env.API_PORT}/v1`,
    siteUrlTemplate: env.SITE_URL_TEMPLATE ?? `http://{slug}.${env.SITES_DOMAIN}:${env.SITE_PORT}`,
  };
}
