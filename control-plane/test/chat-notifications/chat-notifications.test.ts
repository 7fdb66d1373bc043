import t from 'tap';
import { notifyDeployment } from '../../src/chat-notifications/deployment-notifications.ts';
import { DISCORD_COLOURS } from '../../src/chat-notifications/format-discord.ts';
import { deliverDue, retryDelayMs } from '../../src/outgoing-webhooks/deliver.ts';
import { jsonReceiver, type JsonReceiver as Receiver } from '../helpers/json-receiver.ts';
import { startTestPlatform } from '../helpers/platform.ts';

/** A chat app's incoming webhook on 127.0.0.1, at a Slack-like path whose end is the secret. */
const receiver = (statuses: number[] = [200]) => jsonReceiver('/services/T0001/B0002/secretpart', statuses);

const until = async (ok: () => boolean) => { for (let i = 0; i < 400 && !ok(); i++) await new Promise((r) => setTimeout(r, 50)); };

/** A project name that tries every trick: mentions in three apps' syntaxes, a link, markup and a fence. */
const HOSTILE = '<!channel> @everyone <@U1> [x](https://evil.example) *b* ```';

t.test('chat notifications', async (t) => {
  const slack = await receiver();
  const discord = await receiver();
  const teams = await receiver();
  const flaky = await receiver([500, 200]);
  const all = [slack, discord, teams, flaky];
  t.teardown(() => Promise.all(all.map((r) => r.close())));
  const allowHosts = all.map((r) => r.host);
  const tp = await startTestPlatform({}, { services: { fetchAllowHosts: allowHosts } });
  t.teardown(() => tp.close());
  const m = tp.p.cp.m;
  const worker = tp.startWorker();
  await worker.waitFor(/polling/);
  const project = (await tp.api('POST', '/projects', { name: HOSTILE.slice(0, 80), slug: 'chatty' })).body;
  const base = `/projects/${project.id}/chat-notifications`;
  const add = (body: unknown, key?: string) => tp.api('POST', base, body, key);
  const created = {
    slack: (await add({ app: 'slack', url: slack.url })).body,
    discord: (await add({ app: 'discord', url: discord.url, events: ['deployment.succeeded', 'deployment.failed', 'feedback.negative'] })).body,
    teams: (await add({ app: 'teams', url: teams.url })).body,
  };

  t.test('should answer a channel with its URL masked, and store it sealed', async (t) => {
    const port = new URL(slack.url).port;
    t.same({ ...created.slack, id: typeof created.slack.id, created_at: typeof created.slack.created_at }, {
      id: 'string', app: 'slack', url_hint: `http://127.0.0.1:${port}/services/…part`,
      events: ['deployment.succeeded', 'deployment.failed', 'feedback.negative', 'agent.finished'], created_at: 'string',
    });
    const listed = await tp.api('GET', base);
    t.equal(listed.status, 200);
    t.same(listed.body.data.map((c: any) => c.app), ['slack', 'discord', 'teams']);
    t.notMatch(JSON.stringify(listed.body), /secretpart/, 'no answer holds the whole URL');
    const stored = await m.ChatChannel.findById(created.slack.id).lean();
    t.notMatch(JSON.stringify(stored), /secretpart/, 'the database holds it sealed');
  });

  t.test('should refuse every bad input with a clear error', async (t) => {
    const cases: [unknown, string][] = [
      [{ url: slack.url }, 'app: must be one of slack, discord, teams'],
      [{ app: 'irc', url: slack.url }, 'app: must be one of slack, discord, teams'],
      [{ app: 'slack' }, 'url: Required'],
      [{ app: 'slack', url: 42 }, 'url: must be an http or https URL of at most 2000 characters'],
      [{ app: 'slack', url: 'not a url' }, 'url: must be an http or https URL of at most 2000 characters'],
      [{ app: 'slack', url: 'ftp://hooks.example.com/x' }, 'url: must be an http or https URL of at most 2000 characters'],
      [{ app: 'slack', url: `https://a.example/${'x'.repeat(2000)}` }, 'url: must be an http or https URL of at most 2000 characters'],
      [{ app: 'slack', url: 'https://user:pass@hooks.example.com/x' }, 'url: must not carry a user name or password'],
      [{ app: 'slack', url: 'http://10.0.0.7/hook' }, 'url: URL resolves to a private address (10.0.0.7); only public addresses are allowed'],
      [{ app: 'slack', url: 'http://[::1]:80/hook' }, 'url: URL resolves to a private address (::1); only public addresses are allowed'],
      [{ app: 'slack', url: slack.url, events: [] }, 'events: must name at least one event'],
      [{ app: 'slack', url: slack.url, events: ['deployment.started'] }, 'events.0: must each be one of deployment.succeeded, deployment.failed, feedback.negative, agent.finished'],
      [{ app: 'slack', url: slack.url, events: 'deployment.failed' }, 'events: must be a list of events'],
      [{ app: 'slack', url: slack.url, channel: '#general' }, 'channel: Unexpected key'],
    ];
    for (const [body, message] of cases) {
      const res = await add(body);
      t.same([res.status, res.body], [400, { error: 'invalid_request', message }], JSON.stringify(body).slice(0, 80));
    }
    const missing = '00000000-0000-4000-8000-000000000000';
    t.same((await tp.api('DELETE', `${base}/${missing}`)).body, { error: 'not_found', message: 'chat notification channel not found' });
    t.same((await tp.api('POST', `${base}/${missing}/test`)).body, { error: 'not_found', message: 'chat notification channel not found' });
    t.equal(await m.ChatChannel.countDocuments({ project_id: project.id }), 3, 'nothing was added');
  });

  t.test('should allow at most 10 channels per project', async (t) => {
    const extra: string[] = [];
    for (let i = 0; i < 7; i++) extra.push((await add({ app: 'slack', url: slack.url, events: ['agent.finished'] })).body.id);
    t.same(await add({ app: 'slack', url: slack.url }), { status: 409, body: { error: 'conflict', message: 'A project can have at most 10 chat notification channels; delete one first' } });
    for (const id of extra) t.equal((await tp.api('DELETE', `${base}/${id}`)).status, 204);
  });

  t.test('should give a free organization the plan error, and keep listing and deleting open', async (t) => {
    const free = await tp.newOrg(`chat-free-${process.pid}`);
    await m.Organization.updateOne({ _id: free.orgId }, { $set: { plan: 'free' } });
    const own = (await tp.api('POST', '/projects', { name: 'Free docs', slug: 'free-chat' }, free.key)).body;
    const planError = { error: 'plan_required', message: 'The Chat notifications feature needs the Pro plan or higher', upgrade_url: 'https://folio.dev/pricing' };
    t.same(await tp.api('POST', `/projects/${own.id}/chat-notifications`, { app: 'slack', url: slack.url }, free.key), { status: 402, body: planError });
    t.same(await tp.api('GET', `/projects/${own.id}/chat-notifications`, undefined, free.key), { status: 200, body: { data: [] } });
    // A channel made while the organization was on pro: still listed and deletable, not testable.
    await m.Organization.updateOne({ _id: free.orgId }, { $set: { plan: 'pro' } });
    const made = (await tp.api('POST', `/projects/${own.id}/chat-notifications`, { app: 'discord', url: discord.url }, free.key)).body;
    await m.Organization.updateOne({ _id: free.orgId }, { $set: { plan: 'free' } });
    t.same(await tp.api('POST', `/projects/${own.id}/chat-notifications/${made.id}/test`, undefined, free.key), { status: 402, body: planError });
    t.equal((await tp.api('GET', `/projects/${own.id}/chat-notifications`, undefined, free.key)).body.data.length, 1);
    t.equal((await tp.api('DELETE', `/projects/${own.id}/chat-notifications/${made.id}`, undefined, free.key)).status, 204);
  });

  t.test('should keep one organization out of another\'s channels', async (t) => {
    const other = await tp.newOrg(`chat-other-${process.pid}`);
    const notFound = { error: 'not_found', message: 'project not found' };
    t.same(await tp.api('GET', base, undefined, other.key), { status: 404, body: notFound });
    t.same(await tp.api('POST', base, { app: 'slack', url: slack.url }, other.key), { status: 404, body: notFound });
    t.same(await tp.api('DELETE', `${base}/${created.slack.id}`, undefined, other.key), { status: 404, body: notFound });
    t.same(await tp.api('POST', `${base}/${created.slack.id}/test`, undefined, other.key), { status: 404, body: notFound });
    // Its own project with this project's channel id: the channel is not found there either.
    const own = (await tp.api('POST', '/projects', { name: 'Other docs', slug: 'other-chat' }, other.key)).body;
    t.same(await tp.api('DELETE', `/projects/${own.id}/chat-notifications/${created.slack.id}`, undefined, other.key), { status: 404, body: { error: 'not_found', message: 'chat notification channel not found' } });
    t.same(await tp.api('POST', `/projects/${own.id}/chat-notifications/${created.slack.id}/test`, undefined, other.key), { status: 404, body: { error: 'not_found', message: 'chat notification channel not found' } });
    t.ok(await m.ChatChannel.exists({ _id: created.slack.id }), 'still there');
  });

  t.test('should send a test message and say what the app answered', async (t) => {
    const before = slack.got.length;
    t.same(await tp.api('POST', `${base}/${created.slack.id}/test`), { status: 200, body: { delivered: true, status_code: 200, error: null } });
    t.equal(slack.got.length, before + 1);
    t.match(slack.got.at(-1).text, /^Test notification for /);
  });

  let wc: Awaited<ReturnType<typeof tp.workingCopy>> | undefined;
  t.test('should post a succeeded deployment to Slack, Discord and Teams, each in its format', async (t) => {
    wc = await tp.workingCopy('chatty', { 'docs.json': JSON.stringify({ name: 'Chatty' }), 'docs/index.mdx': '# Hi\n' });
    const sha = await wc.push();
    const d = await tp.waitForDeployment(project.id, (x) => x.commit_sha === sha && (x.status === 'deployed' || x.status === 'failed'));
    t.equal(d.status, 'deployed', d.error ?? '');
    await until(() => [slack, discord, teams].every((r) => r.got.some((g) => JSON.stringify(g).includes('Deployment succeeded'))));
    const dashboardLink = `${new URL(tp.p.cp.apiUrl).origin}/projects/${project.id}/deployments/${d.id}`;
    const siteLink = `http://chatty.localhost:${tp.p.site.port}`;

    const s = slack.got.find((g) => g.text?.includes('Deployment succeeded'));
    t.equal(s.blocks[0].type, 'section');
    t.match(s.blocks[0].text.text, /^:white_check_mark: \*Deployment succeeded: /);
    t.match(s.text, '&lt;!channel&gt; @\u200beveryone &lt;@\u200bU1&gt;', 'no mention survives in the fallback');
    t.notMatch(JSON.stringify(s), /<!channel>|<@U1>|[^\u200b]@everyone|https:\/\/evil/, 'no mention or link survives anywhere');
    t.same(s.blocks[1].fields.map((f: any) => f.text.split('\n')[0]), ['*Branch*', '*Commit*', '*Pages*']);
    t.equal(s.blocks[1].fields[1].text, `*Commit*\n${sha.slice(0, 7)}`);
    t.same(s.blocks.at(-1), { type: 'actions', elements: [
      { type: 'button', text: { type: 'plain_text', text: 'View deployment' }, url: dashboardLink },
      { type: 'button', text: { type: 'plain_text', text: 'Open the site' }, url: siteLink },
    ] });

    const dc = discord.got.find((g) => JSON.stringify(g).includes('Deployment succeeded'));
    t.same(dc.allowed_mentions, { parse: [] }, 'Discord is told to ping no one');
    t.equal(dc.embeds.length, 1);
    t.equal(dc.embeds[0].color, DISCORD_COLOURS.success);
    t.equal(dc.embeds[0].url, dashboardLink);
    t.match(dc.embeds[0].title, 'Deployment succeeded: \\<!channel\\> @\u200beveryone \\<@\u200bU1\\> \\[x\\]\\(https:\u200b//evil.example\\) \\*b\\* \\`\\`\\`');
    t.same(dc.embeds[0].fields.at(-1), { name: 'Links', value: `[View deployment](${dashboardLink}) · [Open the site](${siteLink})`, inline: false });

    const tm = teams.got.find((g) => JSON.stringify(g).includes('Deployment succeeded'));
    t.equal(tm.type, 'message');
    t.equal(tm.attachments[0].contentType, 'application/vnd.microsoft.card.adaptive');
    const card = tm.attachments[0].content;
    t.same([card.type, card.version, card.body[0].type, card.body[0].color, card.body[1].type], ['AdaptiveCard', '1.4', 'TextBlock', 'Good', 'FactSet']);
    t.notMatch(card.body[0].text, /\]\(/, 'no markdown link can form');
    t.same(card.actions, [{ type: 'Action.OpenUrl', title: 'View deployment', url: dashboardLink }, { type: 'Action.OpenUrl', title: 'Open the site', url: siteLink }]);
  });

  t.test('should post a failed deployment with its errors, capped, and links', async (t) => {
    await wc!.write({ 'docs.json': '{ "name": ' });
    const sha = await wc!.push();
    const d = await tp.waitForDeployment(project.id, (x) => x.commit_sha === sha && (x.status === 'deployed' || x.status === 'failed'));
    t.equal(d.status, 'failed');
    await until(() => [slack, discord, teams].every((r) => r.got.some((g) => JSON.stringify(g).includes('Deployment failed'))));
    const s = slack.got.find((g) => g.text?.includes('Deployment failed'));
    t.match(s.blocks[0].text.text, /^:x: \*Deployment failed: /);
    t.match(s.blocks[2].text.text, /^\*Errors\*\n```.+```$/s, 'the error in a code block');
    t.equal(s.blocks.at(-1).elements[1].text.text, 'Open the live site');
    const dc = discord.got.find((g) => JSON.stringify(g).includes('Deployment failed'));
    t.equal(dc.embeds[0].color, DISCORD_COLOURS.failure);
    t.match(dc.embeds[0].description, /^\*\*Errors\*\*\n```\n.+\n```$/s);
    const tm = teams.got.find((g) => JSON.stringify(g).includes('Deployment failed'));
    t.equal(tm.attachments[0].content.body[0].color, 'Attention');

    // Twelve failed pages, one trying to close the code block and ping: ten are listed, then how many more.
    const lines = Array.from({ length: 12 }, (_, i) => `docs/p${i}.mdx:1:1: Unexpected ${i === 0 ? '``` <!here> @here' : 'token'}`);
    const failed = await m.Deployment.create({ project_id: project.id, org_id: tp.orgId, commit_sha: 'f'.repeat(40), status: 'failed', error: lines.join('\n'), branch: 'main', trigger: 'manual', created_at: new Date() } as never);
    const before = slack.got.length;
    const n = await notifyDeployment(m, failed._id, { now: () => new Date(), siteUrlOf: () => 'https://docs.example', deploymentUrlOf: (p, id) => `https://app.example/projects/${p}/deployments/${id}` });
    t.equal(n, 3, 'one message per subscribed channel');
    tp.p.webhooks.kick();
    await until(() => slack.got.length > before);
    const capped = slack.got.slice(before).find((g) => g.text?.includes('Deployment failed'));
    const code = capped.blocks[2].text.text as string;
    t.equal(code.split('\n').length, 1 + 11, 'ten lines and the "more" line under the label');
    t.match(code, '…and 2 more```');
    t.match(code, 'Unexpected `\u200b`\u200b`\u200b &lt;!here&gt; @\u200bhere', 'the fence and the mention are neutralised');
  });

  t.test('should post a reader\'s thumbs-down with the comment', async (t) => {
    const unhelpful = (r: Receiver) => r.got.filter((g) => JSON.stringify(g).includes('unhelpful'));
    const post = (body: unknown) => tp.site('chatty', '/_folio/feedback', { 'content-type': 'application/json' }, { method: 'POST', body: JSON.stringify(body) });
    t.equal((await post({ path: '/', helpful: true })).status, 204, 'a thumbs-up sends nothing');
    const comment = 'Wrong again @here <!everyone> see [this](https://evil.example)';
    t.equal((await post({ path: '//evil.example/x', helpful: false, comment })).status, 204);
    await until(() => [slack, discord, teams].every((r) => unhelpful(r).length > 0));
    t.equal(unhelpful(slack).length, 1, 'one message, for the thumbs-down only');
    const s = unhelpful(slack)[0];
    t.match(s.blocks[0].text.text, /^:speech_balloon: \*A reader found a page unhelpful on /);
    t.match(s.blocks[2].text.text, '*Comment*\n```Wrong again @\u200bhere &lt;!everyone&gt; see [this](https:\u200b//evil.example)```');
    t.equal(s.blocks.at(-1).elements[0].url, `http://chatty.localhost:${tp.p.site.port}//evil.example/x`, 'the page link stays on the site');
    const dc = unhelpful(discord)[0];
    t.equal(dc.embeds[0].color, DISCORD_COLOURS.notice);
    t.match(dc.embeds[0].description, 'Wrong again @\u200bhere');
    t.equal(unhelpful(teams)[0].attachments[0].content.body[0].color, 'Warning');
    const bad = await post({ path: '/', helpful: false, comment: 'x'.repeat(501) });
    t.same([bad.status, JSON.parse(bad.body)], [400, { error: 'invalid_request', message: 'comment: must be at most 500 characters' }]);
  });

  t.test('should retry a failing app (500, then 200) with the outgoing webhooks\' backoff', async (t) => {
    await tp.p.webhooks.stop(); // from here on the test drives the clock
    const hook = (await add({ app: 'slack', url: flaky.url, events: ['deployment.failed'] })).body;
    const failed = await m.Deployment.create({ project_id: project.id, org_id: tp.orgId, commit_sha: 'e'.repeat(40), status: 'failed', error: 'Build failed', branch: 'main', trigger: 'manual', created_at: new Date() } as never);
    const now = new Date();
    await notifyDeployment(m, failed._id, { now: () => now, siteUrlOf: () => 'https://docs.example', deploymentUrlOf: () => 'https://app.example/d' });
    const key = { endpoint_id: hook.id as string, target: 'chat' as const };
    t.ok(await deliverDue({ m, now, allowHosts }) >= 1);
    let msg = await m.WebhookMessage.findOne(key).lean();
    t.same([msg!.status, msg!.attempts.map((a) => a.status_code)], ['pending', [500]]);
    t.equal(new Date(msg!.next_attempt_at).getTime() - now.getTime(), retryDelayMs(1));
    await deliverDue({ m, now: new Date(msg!.next_attempt_at), allowHosts });
    msg = await m.WebhookMessage.findOne(key).lean();
    t.same([msg!.status, msg!.attempts.map((a) => a.status_code)], ['delivered', [500, 200]]);
    t.equal(flaky.got.length, 2);
    t.same(flaky.got[0], flaky.got[1], 'the same message both times');
    t.same(Object.keys(flaky.got[0]), ['text', 'blocks']);
  });

  t.test('should refuse a private address again at delivery', async (t) => {
    const failed = await m.Deployment.create({ project_id: project.id, org_id: tp.orgId, commit_sha: 'd'.repeat(40), status: 'failed', error: 'Build failed', branch: 'main', trigger: 'manual', created_at: new Date() } as never);
    const now = new Date();
    await notifyDeployment(m, failed._id, { now: () => now, siteUrlOf: () => 'https://docs.example', deploymentUrlOf: () => 'https://app.example/d' });
    const before = teams.got.length;
    await deliverDue({ m, now }); // no exemption for 127.0.0.1 this time
    const msg = await m.WebhookMessage.findOne({ endpoint_id: created.teams.id, event_key: `${failed._id}.deployment.failed` }).lean();
    t.same([msg!.status, msg!.attempts[0].status_code, msg!.attempts[0].error], ['pending', null, 'url: URL resolves to a private address (127.0.0.1); only public addresses are allowed']);
    t.equal(teams.got.length, before, 'nothing reached the receiver');
  });

  t.test('should pause deliveries after a downgrade and resume them on re-upgrade', async (t) => {
    await m.Organization.updateOne({ _id: tp.orgId }, { $set: { pending_plan: 'free', pending_plan_at: new Date(Date.now() - 1000) } });
    const failed = await m.Deployment.create({ project_id: project.id, org_id: tp.orgId, commit_sha: 'c'.repeat(40), status: 'failed', error: 'Build failed', branch: 'main', trigger: 'manual', created_at: new Date() } as never);
    const now = new Date(Date.now() + 24 * 3600_000);
    await notifyDeployment(m, failed._id, { now: () => now, siteUrlOf: () => 'https://docs.example', deploymentUrlOf: () => 'https://app.example/d' });
    const before = slack.got.length;
    await deliverDue({ m, now, allowHosts });
    t.equal(slack.got.length, before, 'paused: nothing sent');
    const queued = await m.WebhookMessage.findOne({ endpoint_id: created.slack.id, event_key: `${failed._id}.deployment.failed` }).lean();
    t.same([queued!.status, queued!.attempts.length], ['pending', 0], 'kept queued, no attempt spent');
    await m.Organization.updateOne({ _id: tp.orgId }, { $set: { plan: 'pro' } });
    await deliverDue({ m, now, allowHosts });
    t.ok(slack.got.slice(before).some((g) => g.text?.includes('Deployment failed')), 'resumed');
  });
});
