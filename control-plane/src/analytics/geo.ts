/**
 * Country, region and city of a visit. CDN geo headers win when present (the CDN saw the real
 * client address); otherwise the bundled IP database of `geoip-lite` (loaded on first use, as it
 * reads its data files into memory); otherwise unknown (null). The IP itself is never stored.
 *
 * | CDN | Country | Region (ISO 3166-2 subdivision code) | City |
 * |---|---|---|---|
 * | CloudFront | `CloudFront-Viewer-Country` | `CloudFront-Viewer-Country-Region` | `CloudFront-Viewer-City` |
 * | Cloudflare | `CF-IPCountry` | `CF-Region-Code` | `CF-IPCity` |
 * | Vercel | `X-Vercel-IP-Country` | `X-Vercel-IP-Country-Region` | `X-Vercel-IP-City` (URL-encoded) |
 */
import { createRequire } from 'node:module';
import { isIP } from 'node:net';
import { BoundedCache } from './bounded-cache.ts';

export interface Geo { country: string | null; region: string | null; city: string | null }

type HeaderBag = Record<string, string | string[] | undefined>;

const SOURCES = [
  { country: 'cloudfront-viewer-country', region: 'cloudfront-viewer-country-region', city: 'cloudfront-viewer-city' },
  { country: 'cf-ipcountry', region: 'cf-region-code', city: 'cf-ipcity' },
  { country: 'x-vercel-ip-country', region: 'x-vercel-ip-country-region', city: 'x-vercel-ip-city' },
];

const UNKNOWN: Geo = { country: null, region: null, city: null };

/** A header's first value, if any. */
function rawHeader(headers: HeaderBag, name: string): string | undefined {
  const raw = headers[name];
  return Array.isArray(raw) ? raw[0] : raw;
}

/** A header value trimmed, URL-decoded when encoded, and clipped; null when empty. */
function clean(raw: string | undefined): string | null {
  const v = raw?.trim();
  if (!v) return null;
  let decoded = v;
  try { decoded = decodeURIComponent(v); } catch { /* not encoded */ }
  return decoded.slice(0, 80);
}

function countryCode(v: string | null): string | null {
  if (!v || !/^[A-Za-z]{2}$/.test(v)) return null;
  const c = v.toUpperCase();
  return c === 'XX' || c === 'T1' ? null : c;
}

/** Geo from CDN headers, or undefined when no CDN sent a country. */
export function geoFromHeaders(headers: HeaderBag): Geo | undefined {
  for (let i = 0; i < SOURCES.length; i++) {
    const s = SOURCES[i];
    const country = rawHeader(headers, s.country);
    if (!country) continue;
    const region = rawHeader(headers, s.region) ?? '';
    const city = rawHeader(headers, s.city) ?? '';
    // Lengths make the key unambiguous whatever the values hold.
    const geo = fromHeaders.get(`${i}:${country.length}:${country}${region.length}:${region}${city}`, () => sourceGeo(country, region, city));
    if (geo) return geo;
  }
  return undefined;
}

/**
 * Geo per CDN and header values, cached (ingestion classifies every event, and CDNs send a few
 * thousand distinct places): null when the country is not a usable code. Frozen, since events
 * share it.
 */
const fromHeaders = new BoundedCache<Geo | null>(10_000);

function sourceGeo(country: string, region: string, city: string): Geo | null {
  const code = countryCode(clean(country));
  return code ? Object.freeze({ country: code, region: clean(region), city: clean(city) }) : null;
}

interface GeoipLite { lookup(ip: string): { country?: string; region?: string; city?: string } | null }
let geoip: GeoipLite | null | undefined;

function database(): GeoipLite | null {
  if (geoip === undefined) {
    try { geoip = createRequire(import.meta.url)('geoip-lite') as GeoipLite; } catch { geoip = null; }
  }
  return geoip;
}

/** Geo from the bundled IP database; unknown for private, loopback and unparseable addresses. */
export function geoFromIp(ip: string | null | undefined): Geo {
  if (!ip || !isIP(ip)) return UNKNOWN;
  const hit = database()?.lookup(ip);
  if (!hit) return UNKNOWN;
  return { country: countryCode(hit.country ?? null), region: hit.region || null, city: hit.city || null };
}

/** Headers first, then the IP database, then unknown. */
export function geoOf(headers: HeaderBag, ip: string | null | undefined): Geo {
  return geoFromHeaders(headers) ?? geoFromIp(ip);
}
