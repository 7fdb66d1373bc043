import t from 'tap';
import { channelOf, referrerHost } from '../../src/analytics/channels.ts';

const site = 'docs.example.com';
const from = (referer: string | undefined, utm: { utmSource?: string; utmMedium?: string; clickId?: boolean } = {}) =>
  channelOf({ referrer: referrerHost(referer), siteHost: site, ...utm });

t.test('channels', async (t) => {
  t.test('should classify visits referred by AI chat tools as AI', async (t) => {
    const hosts = ['https://chatgpt.com/', 'https://chat.openai.com/c/1', 'https://claude.ai/chat/x', 'https://www.perplexity.ai/search?q=x',
      'https://gemini.google.com/app', 'https://copilot.microsoft.com/', 'https://chat.mistral.ai/chat'];
    t.same(hosts.map((h) => from(h)), hosts.map(() => 'AI'));
    t.equal(from(undefined, { utmSource: 'chatgpt.com' }), 'AI', 'ChatGPT tags links with utm_source=chatgpt.com');
    t.equal(from('https://gemini.google.com/'), 'AI', 'Gemini is AI though it is a Google host');
  });

  t.test('should classify search engines, social networks, webmail and paid clicks', async (t) => {
    t.same(
      [from('https://www.google.com/'), from('https://www.google.co.uk/'), from('https://duckduckgo.com/'), from('https://www.bing.com/search?q=a')],
      ['Organic Search', 'Organic Search', 'Organic Search', 'Organic Search'],
    );
    t.same([from('https://t.co/abc'), from('https://m.facebook.com/'), from('https://news.ycombinator.com/item?id=1'), from('https://www.linkedin.com/feed')],
      ['Social', 'Social', 'Social', 'Social']);
    t.same([from('https://mail.google.com/mail/u/0'), from(undefined, { utmMedium: 'email' }), from(undefined, { utmMedium: 'Newsletter' })], ['Email', 'Email', 'Email']);
    t.same([from('https://www.google.com/', { utmMedium: 'cpc' }), from('https://www.google.com/', { clickId: true })], ['Paid Search', 'Paid Search']);
    t.equal(from(undefined, { utmMedium: 'social' }), 'Social');
  });

  t.test('should classify direct, internal and referral visits', async (t) => {
    t.same(
      [from(undefined), from('not a url'), from('https://docs.example.com/guides'), from('https://www.docs.example.com/'), from('https://blog.other.dev/post')],
      ['Direct', 'Direct', 'Internal', 'Internal', 'Referral'],
    );
  });

  t.test('should keep referrer hostnames lower-case without www', async (t) => {
    t.same([referrerHost('https://WWW.Example.COM/x'), referrerHost('android-app://com.slack/'), referrerHost(''), referrerHost('x')], ['example.com', 'com.slack', null, null]);
  });
});
