/**
 * A reader's thumbs-down in real Chromium: the site asks for an optional comment, sends the vote
 * once with it, and the project's Slack channel (a receiver on 127.0.0.1) gets the message with
 * the comment; a reader who leaves without sending still counts, once, without a comment.
 */
import t from 'tap';
import { launchBrowser } from '../../../site-template/test/helpers/browser.ts';
import { jsonReceiver } from '../helpers/json-receiver.ts';
import { startTestPlatform } from '../helpers/platform.ts';

t.test('thumbs-down with a comment, from a real browser', async (t) => {
  const receiver = await jsonReceiver();
  const { got, host } = receiver;
  t.teardown(() => receiver.close());
  const tp = await startTestPlatform({}, { services: { fetchAllowHosts: [host] } });
  t.teardown(() => tp.close());
  const worker = tp.startWorker();
  await worker.waitFor(/polling/);
  const project = (await tp.api('POST', '/projects', { name: 'Voice', slug: 'voice' })).body;
  const wc = await tp.workingCopy('voice', { 'docs.json': JSON.stringify({ name: 'Voice' }), 'docs/index.mdx': '---\ntitle: Home\n---\n\nHello.\n', 'docs/setup.mdx': '---\ntitle: Setup\n---\n\nInstall it.\n' });
  const sha = await wc.push();
  const d = await tp.waitForDeployment(project.id, (x) => x.commit_sha === sha && (x.status === 'deployed' || x.status === 'failed'));
  t.equal(d.status, 'deployed', d.error ?? '');
  const added = await tp.api('POST', `/projects/${project.id}/chat-notifications`, { app: 'slack', url: `http://${host}/services/T/B/x`, events: ['feedback.negative'] });
  t.equal(added.status, 201);
  const browser = await launchBrowser();
  t.teardown(() => browser.close());
  const origin = `http://voice.localhost:${tp.p.site.port}`;
  const until = async (ok: () => boolean) => { for (let i = 0; i < 400 && !ok(); i++) await new Promise((r) => setTimeout(r, 50)); };
  const downVotes = async () => { await tp.p.analytics.flush(); return tp.p.cp.m.AnalyticsEvent.countDocuments({ project_id: project.id, kind: 'feedback', vote: 'down' }); };

  t.test('should send the vote once, with the comment, and post it to the channel', async (t) => {
    const page = await (await browser.newContext()).newPage();
    await page.goto(`${origin}/setup`);
    await page.click('[data-feedback=down]');
    await page.getByLabel('What could be better? (optional)').fill('The install step skips @here the <!channel> config');
    await page.getByRole('button', { name: 'Send' }).click();
    t.equal(await page.textContent('.feedback-thanks'), 'Thanks for the feedback!');
    t.equal(await page.locator('.feedback-comment').count(), 0, 'the form is gone');
    await until(() => got.length >= 1);
    t.match(got[0].blocks[0].text.text, 'A reader found a page unhelpful on Voice');
    t.match(got[0].blocks[1].fields[0].text, '*Page*\nSetup (/setup)');
    t.equal(got[0].blocks[2].text.text, '*Comment*\n```The install step skips @\u200bhere the &lt;!channel&gt; config```');
    t.equal(got[0].blocks[3].elements[0].url, `${origin}/setup`);
    await page.close();
    for (let i = 0; i < 100 && await downVotes() < 1; i++) await new Promise((r) => setTimeout(r, 50));
    t.equal(await downVotes(), 1, 'counted once');
  });

  t.test('should still count a thumbs-down when the reader leaves without sending', async (t) => {
    const page = await (await browser.newContext()).newPage();
    await page.goto(`${origin}/`);
    await page.click('[data-feedback=down]');
    await page.getByLabel('What could be better? (optional)').waitFor();
    await page.goto(`${origin}/setup`);
    await until(() => got.length >= 2);
    t.equal(got[1].blocks.length, 3, 'headline, page and link: no comment block');
    t.match(got[1].blocks[1].fields[0].text, '*Page*\nHome (/)');
    for (let i = 0; i < 100 && await downVotes() < 2; i++) await new Promise((r) => setTimeout(r, 50));
    t.equal(await downVotes(), 2);
    await page.close();
  });
});
