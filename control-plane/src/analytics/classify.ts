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
import { visitorHash } from './visitor-hash.ts';

interface Agent { bot: boolean; aiFamily: string | null; browser: string; os: string; device: string }

const UA_CACHE_MAX = 10_000;
const agents = new Map<string, Agent>();

const DEVICE_NAMES: Record<string, string> = { mobile: 'Mobile', tablet: 'Tablet', smarttv: 'TV', console: 'Console', wearable: 'Wearable', embedded: 'Embedded', xr: 'XR' };

/** Browser, OS, device and bot-ness of a User-Agent (cached: real traffic repeats a few thousand agents). */
export function agentOf(userAgent: string): Agent {
  const hit = agents.get(userAgent);
  if (hit) return hit;
  const aiFamily = aiFamilyOf(userAgent);
  const bot = aiFamily !== null || userAgent.trim() === '' || isbot(userAgent);
  const r = new UAParser(userAgent).getResult();
  const agent: Agent = {
    bot, aiFamily,
    browser: r.browser.name ?? 'Unknown',
    os: r.os.name ?? 'Unknown',
    device: bot ? 'Bot' : r.device.type ? (DEVICE_NAMES[r.device.type] ?? 'Other') : 'Desktop',
  };
  if (agents.size >= UA_CACHE_MAX) agents.clear();
  agents.set(userAgent, agent);
  return agent;
}

const clip = (v: string | null | undefined, max: number): string | undefined => (v ? v.slice(0, max) : undefined);

/** The stored event for `input`, hashed with the salt of its UTC day. */
export function classify(input: EventInput, at: Date, salt: string): AnalyticsEvent {
  const { visit } = input;
  const agent = agentOf(visit.userAgent);
  const params = new URLSearchParams(visit.search ?? '');
  const referrer = referrerHost(visit.referer);
  const channel = channelOf({
    referrer, siteHost: visit.host, utmSource: params.get('utm_source'), utmMedium: params.get('utm_medium'),
    clickId: params.has('gclid') || params.has('msclkid'),
  });
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
    hour_key: hourKey(input.projectId, hourOf(at)),
    bot: agent.bot,
    browser: agent.browser,
    os: agent.os,
    device: agent.device,
    channel,
  };
  const optional: Partial<AnalyticsEvent> = {
    path: clip(input.path, 512),
    ai_family: agent.aiFamily ?? undefined,
    // Internal navigation is not a referrer: the referrers breakdown lists other sites.
    referrer: channel === 'Internal' ? undefined : clip(referrer, 253),
    campaign: clip(params.get('utm_campaign')?.trim(), 200),
    keyword: clip(params.get('utm_term')?.trim(), 200),
    country: geo.country ?? undefined,
    region: geo.region ?? undefined,
    city: geo.city ?? undefined,
  };
  if (input.kind === 'export') optional.export_kind = input.exportKind;
  if (input.kind === 'search') { optional.query = input.query; optional.result_count = input.resultCount; }
  if (input.kind === 'feedback') optional.vote = input.vote;
  if (input.kind === 'engagement') optional.duration_ms = input.durationMs;
  for (const [k, v] of Object.entries(optional)) if (v !== undefined && v !== '') (doc as unknown as Record<string, unknown>)[k] = v;
  return doc;
}
