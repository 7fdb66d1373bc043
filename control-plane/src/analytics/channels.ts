/**
 * Acquisition channels, decided in one place. The first rule that matches wins:
 *
 * | Channel | Rule |
 * |---|---|
 * | AI | the referrer is an AI chat tool (table below), or `utm_source` names one (ChatGPT adds `utm_source=chatgpt.com`) |
 * | Paid Search | `utm_medium` is cpc, ppc, paid, paidsearch, paid-search or paid_search, or the URL carries `gclid` / `msclkid` |
 * | Email | `utm_medium` is email / e-mail / newsletter, or the referrer is a webmail host |
 * | Social | `utm_medium` is social / social-network / sm, or the referrer is a social network |
 * | Organic Search | the referrer is a search engine |
 * | Internal | the referrer is the site itself (navigation between its pages) |
 * | Referral | any other referrer |
 * | Direct | no referrer and no campaign tags |
 *
 * Hosts match themselves and their subdomains (`m.facebook.com` is `facebook.com`); a leading
 * `www.` is dropped from the hostname stored as the referrer.
 */

/** AI chat tools: visits they refer are the channel AI. */
export const AI_REFERRERS = [
  'chatgpt.com', 'chat.openai.com', 'claude.ai', 'perplexity.ai', 'gemini.google.com', 'bard.google.com',
  'copilot.microsoft.com', 'chat.mistral.ai', 'chat.deepseek.com', 'meta.ai', 'you.com', 'phind.com', 'poe.com', 'grok.com',
];
export const SEARCH_ENGINES = [
  'google', 'bing.com', 'duckduckgo.com', 'search.yahoo.com', 'yahoo.com', 'baidu.com', 'yandex.ru', 'yandex.com',
  'ecosia.org', 'search.brave.com', 'startpage.com', 'qwant.com', 'naver.com', 'seznam.cz', 'kagi.com',
];
export const SOCIAL_NETWORKS = [
  'facebook.com', 'fb.com', 't.co', 'twitter.com', 'x.com', 'linkedin.com', 'lnkd.in', 'reddit.com', 'news.ycombinator.com',
  'youtube.com', 'instagram.com', 'mastodon.social', 'bsky.app', 'threads.net', 'pinterest.com', 'tiktok.com', 'discord.com', 'slack.com',
];
export const WEBMAIL = ['mail.google.com', 'outlook.live.com', 'outlook.office.com', 'mail.yahoo.com', 'mail.proton.me'];

const PAID_MEDIA = new Set(['cpc', 'ppc', 'paid', 'paidsearch', 'paid-search', 'paid_search']);
const EMAIL_MEDIA = new Set(['email', 'e-mail', 'newsletter']);
const SOCIAL_MEDIA = new Set(['social', 'social-network', 'sm']);

export type Channel = 'AI' | 'Paid Search' | 'Email' | 'Social' | 'Organic Search' | 'Internal' | 'Referral' | 'Direct';

/** Whether `host` is `domain` or a subdomain of it. `google` alone matches any Google country domain. */
function hostIs(host: string, domain: string): boolean {
  if (!domain.includes('.')) return host.split('.').includes(domain);
  return host === domain || host.endsWith(`.${domain}`);
}

const inList = (host: string | null, list: string[]) => host !== null && list.some((d) => hostIs(host, d));

/** The hostname of a Referer header value, lower-case without `www.`, or null when absent or not a URL. */
export function referrerHost(referer: string | undefined): string | null {
  if (!referer) return null;
  try {
    const host = new URL(referer).hostname.toLowerCase().replace(/\.$/, '');
    return host ? host.replace(/^www\./, '') : null;
  } catch {
    return null;
  }
}

export interface ChannelInput {
  /** Referrer hostname from {@link referrerHost}. */
  referrer: string | null;
  /** The site's own host, so internal navigation is told apart. */
  siteHost: string;
  utmSource?: string | null;
  utmMedium?: string | null;
  /** Whether the URL carries an ad click id (`gclid`, `msclkid`). */
  clickId?: boolean;
}

/** The channel of a visit (rules in the module comment). */
export function channelOf(input: ChannelInput): Channel {
  const medium = input.utmMedium?.toLowerCase() ?? '';
  const source = input.utmSource?.toLowerCase().replace(/^https?:\/\//, '').replace(/^www\./, '').replace(/\/.*$/, '') ?? '';
  const host = input.referrer;
  if (inList(host, AI_REFERRERS) || (source !== '' && inList(source, AI_REFERRERS))) return 'AI';
  if (PAID_MEDIA.has(medium) || input.clickId) return 'Paid Search';
  if (EMAIL_MEDIA.has(medium) || inList(host, WEBMAIL)) return 'Email';
  if (SOCIAL_MEDIA.has(medium) || inList(host, SOCIAL_NETWORKS)) return 'Social';
  if (inList(host, SEARCH_ENGINES)) return 'Organic Search';
  const site = input.siteHost.toLowerCase().replace(/:\d+$/, '').replace(/^www\./, '');
  if (host !== null && host === site) return 'Internal';
  if (host !== null) return 'Referral';
  return 'Direct';
}
