/**
 * CDN access log formats, parsed into one request shape. Two formats are read:
 *
 * **JSON lines** (`format=jsonl`): one object per line; `timestamp` (ISO 8601), `host`, `path`
 * and `user_agent` are required, the rest optional: `method` (default GET), `query` (without
 * `?`), `status` (default 200), `referer`, `ip`, `accept`, and the viewer's `country`
 * (ISO 3166-1 alpha-2), `region` (ISO 3166-2 subdivision code) and `city` as the CDN located them.
 *
 * **CloudFront standard logs** (`format=cloudfront`): the tab-separated W3C format; the
 * `#Fields:` line sets the column order (the documented default order is used until one is
 * seen). `date` + `time` (UTC), `x-host-header` (else `cs(Host)`), `cs-method`, `cs-uri-stem`,
 * `cs-uri-query`, `sc-status`, `cs(Referer)`, `cs(User-Agent)` and `c-ip` are read; `-` is empty.
 * CloudFront logs carry no Accept header, so Markdown exports count through their `.md` URLs.
 */
import { z } from 'zod';
import { issueMessage } from '../http/validate.ts';

/** One request line of a CDN log. */
export interface LogRequest {
  at: Date;
  host: string;
  method: string;
  path: string;
  query: string;
  status: number;
  userAgent: string;
  referer?: string;
  ip: string | null;
  accept?: string;
  geo?: { country?: string; region?: string; city?: string };
}

export const LOG_FORMATS = ['jsonl', 'cloudfront'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

const text = (max: number) => z.string({ error: 'must be a string' }).max(max, { error: `must be at most ${max} characters` });
const jsonLine = z.object({
  timestamp: z.iso.datetime({ offset: true, error: 'must be an ISO 8601 date-time' }),
  host: text(253).min(1, { error: 'must not be empty' }),
  method: text(16).default('GET'),
  path: text(2048).regex(/^\//, { error: 'must start with /' }),
  query: text(4096).default(''),
  status: z.number({ error: 'must be an integer' }).int({ error: 'must be an integer' }).default(200),
  user_agent: text(512),
  referer: text(2048).optional(),
  ip: text(64).optional(),
  accept: text(512).optional(),
  country: text(8).optional(),
  region: text(80).optional(),
  city: text(80).optional(),
});

/** A line that could not be read, with why. */
export class LogLineError extends Error {}

/** Parses one JSON line. */
export function parseJsonLine(line: string): LogRequest {
  let raw: unknown;
  try { raw = JSON.parse(line); } catch { throw new LogLineError('Unexpected text; expected a JSON object'); }
  const r = jsonLine.safeParse(raw);
  if (!r.success) {
    const { field, rule } = issueMessage(r.error.issues[0], raw);
    throw new LogLineError(`${field || 'line'}: ${rule}`);
  }
  const v = r.data;
  return {
    at: new Date(v.timestamp), host: v.host, method: v.method.toUpperCase(), path: v.path, query: v.query.replace(/^\?/, ''), status: v.status,
    userAgent: v.user_agent, referer: v.referer, ip: v.ip ?? null, accept: v.accept,
    geo: v.country ? { country: v.country, region: v.region, city: v.city } : undefined,
  };
}

/** CloudFront's documented column order, used until a `#Fields:` line says otherwise. */
export const CLOUDFRONT_DEFAULT_FIELDS = [
  'date', 'time', 'x-edge-location', 'sc-bytes', 'c-ip', 'cs-method', 'cs(Host)', 'cs-uri-stem', 'sc-status', 'cs(Referer)',
  'cs(User-Agent)', 'cs-uri-query', 'cs(Cookie)', 'x-edge-result-type', 'x-edge-request-id', 'x-host-header', 'cs-protocol',
  'cs-bytes', 'time-taken', 'x-forwarded-for', 'ssl-protocol', 'ssl-cipher', 'x-edge-response-result-type', 'cs-protocol-version',
  'fle-status', 'fle-encrypted-fields', 'c-port', 'time-to-first-byte', 'x-edge-detailed-result-type', 'sc-content-type',
  'sc-content-len', 'sc-range-start', 'sc-range-end',
];

/** CloudFront URL-encodes header values, and older logs encode them twice (`%2520`). */
function cfDecode(v: string | undefined): string | undefined {
  if (v === undefined || v === '-' || v === '') return undefined;
  let out = v;
  for (let i = 0; i < 2 && /%[0-9A-Fa-f]{2}/.test(out); i++) {
    try { out = decodeURIComponent(out); } catch { break; }
  }
  return out;
}

/** A CloudFront log reader: feed it lines in order (it keeps the `#Fields:` order). */
export function cloudFrontReader() {
  let fields = CLOUDFRONT_DEFAULT_FIELDS;
  return (line: string): LogRequest | undefined => {
    if (line.startsWith('#')) {
      if (line.startsWith('#Fields:')) fields = line.slice('#Fields:'.length).trim().split(/\s+/);
      return undefined;
    }
    const cols = line.split('\t');
    const get = (name: string) => { const i = fields.indexOf(name); return i < 0 ? undefined : cols[i]; };
    const at = new Date(`${get('date')}T${get('time')}Z`);
    const host = cfDecode(get('x-host-header')) ?? cfDecode(get('cs(Host)'));
    const path = cfDecode(get('cs-uri-stem'));
    if (Number.isNaN(at.getTime())) throw new LogLineError('date, time: Unexpected value; expected YYYY-MM-DD and HH:MM:SS');
    if (!host) throw new LogLineError('x-host-header: Required');
    if (!path?.startsWith('/')) throw new LogLineError('cs-uri-stem: must start with /');
    const query = get('cs-uri-query');
    return {
      at, host, path, method: (get('cs-method') ?? 'GET').toUpperCase(), query: query && query !== '-' ? query : '',
      status: Number(get('sc-status') ?? 0), userAgent: cfDecode(get('cs(User-Agent)')) ?? '', referer: cfDecode(get('cs(Referer)')),
      ip: cfDecode(get('c-ip')) ?? null,
    };
  };
}
