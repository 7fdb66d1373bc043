import t from 'tap';
import { customer, type ChatMessage } from '../../src/chat-notifications/chat-message.ts';
import { formatForApp } from '../../src/chat-notifications/format-for-app.ts';
import { forDiscord, forSlack, forTeams, oneLine } from '../../src/chat-notifications/neutralise.ts';

const Z = '\u200b';
/** Every trick at once: mentions in three apps' syntaxes, a masked link, a bare URL, markup, a fence, JSON and control characters. */
const HOSTILE = '<!channel> @everyone <@U1> <@&2> [x](https://evil.example) www.evil.example *b* ```"}\u0000\nnext line\u2028';

t.test('neutralise', async (t) => {
  t.test('should flatten control characters and cap the length', async (t) => {
    t.equal(oneLine('a\nb\r\n\tc\u0000d\u2028e'), 'a b c d e');
    t.equal(oneLine('x'.repeat(20), 10), `${'x'.repeat(9)}…`);
  });

  t.test('should leave no mention, link or markup in Slack mrkdwn', async (t) => {
    t.equal(forSlack(HOSTILE), `&lt;!channel&gt; @${Z}everyone &lt;@${Z}U1&gt; &lt;@${Z}&amp;2&gt; [x](https:${Z}//evil.example) www${Z}.evil.example *${Z}b*${Z} \`${Z}\`${Z}\`${Z}"} next line`);
  });

  t.test('should escape Discord markdown and break mentions and URLs', async (t) => {
    t.equal(forDiscord(HOSTILE), `\\<!channel\\> @${Z}everyone \\<@${Z}U1\\> \\<@${Z}&2\\> \\[x\\]\\(https:${Z}//evil.example\\) www${Z}.evil.example \\*b\\* \\\`\\\`\\\`"} next line`);
  });

  t.test('should keep Teams markdown from forming links or emphasis', async (t) => {
    t.equal(forTeams(HOSTILE), `<!channel>${Z} @${Z}everyone <@${Z}U1>${Z} <@${Z}&2>${Z} [${Z}x]${Z}(${Z}https:${Z}//evil.example)${Z} www${Z}.evil.example *${Z}b*${Z} \`${Z}\`${Z}\`${Z}"} next line`);
  });

  t.test('should produce valid JSON in every app however the text is made', async (t) => {
    const msg: ChatMessage = {
      event: 'feedback.negative', outcome: 'notice', title: ['Feedback on ', customer(HOSTILE)],
      facts: [{ label: 'Page', value: [customer(HOSTILE)] }], details: { label: 'Comment', lines: [HOSTILE] },
      links: [{ label: 'Open the page', url: 'https://docs.example/a' }], at: new Date(0),
    };
    for (const app of ['slack', 'discord', 'teams'] as const) {
      const body = formatForApp(app, msg);
      const parsed = JSON.parse(body);
      t.ok(parsed, `${app} parses`);
      t.notMatch(body, /@everyone|\]\(https:\/\/evil|https:\/\/evil/, `${app}: no live mention or link`);
      // `<!channel>` and `<@U1>` are Slack's syntax: only Slack must never see them whole.
      if (app === 'slack') t.notMatch(body, /<!channel>|<@U1>/, 'slack: no channel-wide or user mention');
    }
    t.same(JSON.parse(formatForApp('discord', msg)).allowed_mentions, { parse: [] });
  });
});
