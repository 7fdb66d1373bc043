import t from 'tap';
import { pageFeed, rssFeeds, siteFeed } from '../../src/outputs/rss-feeds.ts';
import { pages, site } from './sample-site.ts';

const head = (title: string, link: string, description: string, self: string) => [
  '<?xml version="1.0" encoding="UTF-8"?>',
  '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:content="http://purl.org/rss/1.0/modules/content/">',
  '<channel>',
  `<title>${title}</title>`,
  `<link>${link}</link>`,
  `<description>${description}</description>`,
  `<atom:link href="${self}" rel="self" type="application/rss+xml"/>`,
];

t.test('rssFeeds', async (t) => {
  t.test('should write a page feed newest first, undated last, escaped, with absolute links', async (t) => {
    t.equal(
      pageFeed(pages[2], site),
      [
        ...head('Changelog · Acme &amp; Co', 'https://acme.docs.example/docs/changelog', 'What changed', 'https://acme.docs.example/docs/changelog/rss.xml'),
        '<item>',
        '<title>v2 &quot;fast&quot;</title>',
        '<link>https://acme.docs.example/docs/changelog#v2</link>',
        '<guid isPermaLink="true">https://acme.docs.example/docs/changelog#v2</guid>',
        '<pubDate>Mon, 04 Mar 2024 00:00:00 GMT</pubDate>',
        '<description>Faster &amp; smaller</description>',
        '<content:encoded><![CDATA[<p>Faster ]]]]><![CDATA[> &amp; smaller</p>]]></content:encoded>',
        '</item>',
        '<item>',
        '<title>v1</title>',
        '<link>https://acme.docs.example/docs/changelog#v1</link>',
        '<guid isPermaLink="true">https://acme.docs.example/docs/changelog#v1</guid>',
        '<pubDate>Tue, 02 Jan 2024 00:00:00 GMT</pubDate>',
        '<description>First release</description>',
        '<content:encoded><![CDATA[<p>First release</p>]]></content:encoded>',
        '</item>',
        '<item>',
        '<title>Next</title>',
        '<link>https://acme.docs.example/docs/changelog#next</link>',
        '<guid isPermaLink="true">https://acme.docs.example/docs/changelog#next</guid>',
        '<description>Soon</description>',
        '<content:encoded><![CDATA[<p>Soon</p>]]></content:encoded>',
        '</item>',
        '</channel>',
        '</rss>',
        '',
      ].join('\n'),
    );
  });

  t.test('should give a page without updates an empty feed, the root page at /index/rss.xml', async (t) => {
    t.equal(
      pageFeed(pages[1], site),
      [...head('Welcome · Acme &amp; Co', 'https://acme.docs.example/docs/', 'Docs for &lt;Acme&gt;', 'https://acme.docs.example/docs/index/rss.xml'), '</channel>', '</rss>', ''].join('\n'),
    );
  });

  t.test('should write the site feed with page-prefixed titles', async (t) => {
    const xml = siteFeed(pages, site);
    t.ok(xml.startsWith(head('Acme &amp; Co', 'https://acme.docs.example/docs/', 'Docs for &lt;Acme&gt;', 'https://acme.docs.example/docs/rss.xml').join('\n') + '\n<item>\n'));
    t.same([...xml.matchAll(/<title>([^<]*)<\/title>/g)].map((m) => m[1]), ['Acme &amp; Co', 'Changelog: v2 &quot;fast&quot;', 'Changelog: v1', 'Changelog: Next']);
  });

  t.test('should emit one feed per page plus the site feed', async (t) => {
    t.same([...rssFeeds(pages, site).keys()], ['guides/install/rss.xml', 'index/rss.xml', 'changelog/rss.xml', 'rss.xml']);
  });
});
