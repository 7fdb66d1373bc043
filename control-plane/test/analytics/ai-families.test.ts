import t from 'tap';
import { AI_FAMILIES, aiFamilyOf } from '../../src/analytics/ai-families.ts';
import { agentOf } from '../../src/analytics/classify.ts';

/** A User-Agent each family really sends (from the operators' published strings). */
const SAMPLES: Record<string, string> = {
  'GPTBot': 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)',
  'OAI-SearchBot': 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; OAI-SearchBot/1.0; +https://openai.com/searchbot',
  'ChatGPT-User': 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot',
  'ClaudeBot': 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)',
  'Claude-User': 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Claude-User/1.0; +Claude-User@anthropic.com)',
  'Claude-SearchBot': 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Claude-SearchBot/1.0; +Claude-SearchBot@anthropic.com)',
  'Claude-Web': 'Mozilla/5.0 (compatible; Claude-Web/1.0; +https://www.anthropic.com)',
  'anthropic-ai': 'anthropic-ai/1.0',
  'PerplexityBot': 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; PerplexityBot/1.0; +https://perplexity.ai/perplexitybot)',
  'Perplexity-User': 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Perplexity-User/1.0; +https://perplexity.ai/perplexity-user)',
  'Google-Extended': 'Mozilla/5.0 (compatible; Google-Extended)',
  'Applebot-Extended': 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15 (Applebot-Extended/0.1; +http://www.apple.com/go/applebot)',
  'Bytespider': 'Mozilla/5.0 (Linux; Android 5.0) AppleWebKit/537.36 (KHTML, like Gecko) Mobile Safari/537.36 (compatible; Bytespider; spider-feedback@bytedance.com)',
  'CCBot': 'CCBot/2.0 (https://commoncrawl.org/faq/)',
  'Meta-ExternalAgent': 'meta-externalagent/1.1 (+https://developers.facebook.com/docs/sharing/webmasters/crawler)',
  'Meta-ExternalFetcher': 'meta-externalfetcher/1.1 (+https://developers.facebook.com/docs/sharing/webmasters/crawler)',
  'Amazonbot': 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Amazonbot/0.1; +https://developer.amazon.com/support/amazonbot) Chrome/119.0.6045.214 Safari/537.36',
  'cohere-ai': 'cohere-ai',
  'cohere-training-data-crawler': 'cohere-training-data-crawler/1.0',
  'DuckAssistBot': 'DuckAssistBot/1.2; (+http://duckduckgo.com/duckassistbot.html)',
  'MistralAI-User': 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; MistralAI-User/1.0; +https://docs.mistral.ai/robots)',
  'YouBot': 'Mozilla/5.0 (compatible; YouBot (+http://www.you.com))',
  'Diffbot': 'Mozilla/5.0 (X11; U; Linux x86_64; en-US) AppleWebKit/534.16 (KHTML, like Gecko, Diffbot/0.1; +http://www.diffbot.com) Chrome/10.0.648.134 Safari/534.16',
  'AI2Bot': 'Mozilla/5.0 (compatible) AI2Bot (+https://www.allenai.org/crawler)',
  'PetalBot': 'Mozilla/5.0 (Linux; Android 7.0;) AppleWebKit/537.36 (KHTML, like Gecko) Mobile Safari/537.36 (compatible; PetalBot;+https://webmaster.petalsearch.com/site/petalbot)',
  'Timpibot': 'Timpibot/0.8 (+http://www.timpi.io)',
  'ImagesiftBot': 'Mozilla/5.0 (compatible; ImagesiftBot; +imagesift.com)',
  'Kangaroo Bot': 'Mozilla/5.0 (compatible; Kangaroo Bot/1.0; +https://kangaroollm.com.au/kangaroo-bot/)',
  'PanguBot': 'Mozilla/5.0 (compatible; PanguBot/1.0)',
};

t.test('AI crawler families', async (t) => {
  t.test('should have a sample for every family in the table and no extra', async (t) => {
    t.same(Object.keys(SAMPLES).sort(), AI_FAMILIES.map((f) => f.family).sort());
  });

  for (const family of AI_FAMILIES) {
    t.test(`should classify ${family.family} as that family and as a bot`, async (t) => {
      const ua = SAMPLES[family.family];
      t.equal(aiFamilyOf(ua), family.family);
      t.same([agentOf(ua).bot, agentOf(ua).aiFamily, agentOf(ua).device], [true, family.family, 'Bot']);
    });
  }

  t.test('should tell families apart whose tokens share a prefix', async (t) => {
    t.equal(aiFamilyOf('Claude-User/1.0'), 'Claude-User');
    t.equal(aiFamilyOf('Claude-SearchBot/1.0'), 'Claude-SearchBot');
    t.equal(aiFamilyOf('Applebot/0.1'), null, 'plain Applebot (search) is not the AI training family');
    t.equal(aiFamilyOf('Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)'), null);
  });

  t.test('should leave browsers and other bots outside every family', async (t) => {
    const chrome = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';
    t.same(agentOf(chrome), { bot: false, aiFamily: null, browser: 'Chrome', os: 'Windows', device: 'Desktop' });
    const googlebot = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
    t.same([agentOf(googlebot).bot, agentOf(googlebot).aiFamily], [true, null]);
    t.same([agentOf('').bot, agentOf('').browser], [true, 'Unknown'], 'no User-Agent at all is a bot');
    t.equal(aiFamilyOf(undefined), null);
  });
});
