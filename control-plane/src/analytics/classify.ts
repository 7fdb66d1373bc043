/**
 * Turns an {@link EventInput} into the stored event: browser, OS and device from `ua-parser-js`,
 * bots from `isbot` (plus every AI family, and requests without a User-Agent), the AI family,
 * the channel, geo, campaign tags and the salted visitor hash. Pure apart from the caches.
 */
import { isbot } from 'isbot';
import { mongo } from 'mongoose';
import UAParser from 'ua-parser-js';
import type { AnalyticsEvent } from '../db/models/analytics-event.ts';
import { aiFamilyOf } from './ai-families.ts';
import { channelOf, referrerHost } from './channels.ts';
import type { EventInput } from './event-input.ts';
import { geoOf } from './geo.ts';
import { hourKey, hourOf } from './rollup-keys.ts';
import { BoundedCache } from './bounded-cache.ts';
import { visitorHash } from './visitor-hash.ts';

interface Agent { bot: boolean; aiFamily: string | null; browser: string; os: string; device: string }

/** What the page URL's query string and the Referer say, the same for every event that repeats them. */
interface Origin { referrer: string | undefined; channel: string; campaign: string | undefined; keyword: string | undefined }

/**
 * Caches of the classification of repeated inputs (analytics/bounded-cache.ts): real traffic
 * repeats a few thousand User-Agents, and far fewer (site, Referer, query string) triples than
 * events; each entry is a pure function of its key.
 */
const agents = new BoundedCache<Agent>(10_000);
const origins = new BoundedCache<Origin>(10_000);

const DEVICE_NAMES: Record<string, string> = { mobile: 'Mobile', tablet: 'Tablet', smarttv: 'TV', console: 'Console', wearable: 'Wearable', embedded: 'Embedded', xr: 'XR' };

/** Browser, OS, device and bot-ness of a User-Agent (cached). */
export function agentOf(userAgent: string): Agent {
  return agents.get(userAgent, parseAgent);
}

function parseAgent(userAgent: string): Agent {
  const aiFamily = aiFamilyOf(userAgent);
  const bot = aiFamily !== null || userAgent.trim() === '' || isbot(userAgent);
  const r = new UAParser(userAgent).getResult();
  return {
    bot, aiFamily,
    browser: r.browser.name ?? 'Unknown',
    os: r.os.name ?? 'Unknown',
    device: bot ? 'Bot' : r.device.type ? (DEVICE_NAMES[r.device.type] ?? 'Other') : 'Desktop',
  };
}

const clip = (v: string | null | undefined, max: number): string | undefined => (v ? v.slice(0, max) : undefined);

/** The referrer, channel and campaign tags of a visit (cached per site, Referer and query string). */
function originOf(host: string, referer: string | undefined, search: string | undefined): Origin {
  const r = referer ?? '';
  const q = search ?? '';
  // Lengths make the key unambiguous whatever the parts hold.
  return origins.get(`${host.length}:${host}${r.length}:${r}${q}`, () => parseOrigin(host, r, q));
}

function parseOrigin(host: string, referer: string, search: string): Origin {
  const params = new URLSearchParams(search);
  const referrer = referrerHost(referer);
  const channel = channelOf({
    referrer, siteHost: host, utmSource: params.get('utm_source'), utmMedium: params.get('utm_medium'),
    clickId: params.has('gclid') || params.has('msclkid'),
  });
  return {
    // Internal navigation is not a referrer: the referrers breakdown lists other sites.
    referrer: channel === 'Internal' ? undefined : clip(referrer, 253) || undefined,
    channel,
    campaign: clip(params.get('utm_campaign')?.trim(), 200) || undefined,
    keyword: clip(params.get('utm_term')?.trim(), 200) || undefined,
  };
}

/**
 * The stored event for `input`, hashed with the salt of its UTC day. Optional fields are only
 * set when they have a value (the document then holds no `undefined` field).
 */
export function classify(input: EventInput, at: Date, salt: string): AnalyticsEvent {
  const { visit } = input;
  const agent = agentOf(visit.userAgent);
  const origin = originOf(visit.host, visit.referer, visit.search);
  const geo = geoOf(visit.headers ?? {}, visit.ip);
  const doc: AnalyticsEvent = {
    // Made here rather than by the driver, which appends a missing `_id` last: the database
    // stores `_id` first and would otherwise copy every event to move it.
    _id: new mongo.ObjectId(),
    project_id: input.projectId,
    ts: at,
    kind: input.kind,
    source: input.source ?? 'server',
    visitor: visitorHash(salt, input.projectId, visit.ip ?? '', visit.userAgent),
    hour_key: hourKeyOf(input.projectId, at),
    bot: agent.bot,
    browser: agent.browser,
    os: agent.os,
    device: agent.device,
    channel: origin.channel,
  };
  const path = clip(input.path, 512);
  if (path) doc.path = path;
  if (agent.aiFamily) doc.ai_family = agent.aiFamily;
  if (origin.referrer) doc.referrer = origin.referrer;
  if (origin.campaign) doc.campaign = origin.campaign;
  if (origin.keyword) doc.keyword = origin.keyword;
  if (geo.country) doc.country = geo.country;
  if (geo.region) doc.region = geo.region;
  if (geo.city) doc.city = geo.city;
  if (input.kind === 'export' && input.exportKind) doc.export_kind = input.exportKind;
  if (input.kind === 'search') {
    if (input.query) doc.query = input.query;
    if (input.resultCount !== undefined) doc.result_count = input.resultCount;
  }
  if (input.kind === 'feedback' && input.vote) doc.vote = input.vote;
  if (input.kind === 'engagement' && input.durationMs !== undefined) doc.duration_ms = input.durationMs;
  return doc;
}

/** The last `hour_key` made per project: events arrive in time order, so most reuse it. */
const lastHourKey = new Map<string, { hour: number; key: string }>();

function hourKeyOf(projectId: string, at: Date): string {
  const hour = hourOf(at);
  const last = lastHourKey.get(projectId);
  if (last && last.hour === hour) return last.key;
  const key = hourKey(projectId, hour);
  if (lastHourKey.size >= 10_000) lastHourKey.clear();
  lastHourKey.set(projectId, { hour, key });
  return key;
}
