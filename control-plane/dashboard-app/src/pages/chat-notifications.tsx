/**
 * The project settings' chat notifications: Slack, Discord and Microsoft Teams channels, what
 * each is sent, a test message and removal (`/projects/{id}/chat-notifications`). Adding and
 * testing need the Pro plan: the plan (`/plan`, the same entitlement resolver the server checks)
 * decides whether the form is offered, and the server's 402 is shown with its upgrade link.
 */
import { useState } from 'preact/hooks';
import { api } from '../api.ts';
import { can, useSession } from '../session.ts';
import { Field, submitWith, useSubmit } from '../ui/form.tsx';
import { ErrorNotice, Loading, Notice } from '../ui/notice.tsx';
import { useLoad } from '../ui/use-load.ts';

interface Channel { id: string; app: string; url_hint: string; events: string[]; created_at: string }
interface TestResult { delivered: boolean; status_code: number | null; error: string | null }
interface PlanFeatures { features: Record<string, { type: string; enabled?: boolean }>; upgrade_url?: string }

/** The apps, in people's words, with where their webhook URL comes from. */
const APPS: { id: string; name: string; hint: string }[] = [
  { id: 'slack', name: 'Slack', hint: 'In Slack: an app with Incoming Webhooks, then "Add New Webhook to Workspace". Starts with https://hooks.slack.com/.' },
  { id: 'discord', name: 'Discord', hint: 'In Discord: the channel\'s settings, Integrations, Webhooks, "New Webhook", "Copy Webhook URL".' },
  { id: 'teams', name: 'Microsoft Teams', hint: 'In Teams: the channel\'s Workflows, "Post to a channel when a webhook request is received"; copy the URL it gives.' },
];

/** The events, in people's words. */
const EVENTS: { id: string; label: string }[] = [
  { id: 'deployment.succeeded', label: 'A deployment succeeded' },
  { id: 'deployment.failed', label: 'A deployment failed (with the failed pages and their errors)' },
  { id: 'feedback.negative', label: 'A reader found a page unhelpful (with their comment)' },
  { id: 'agent.finished', label: 'An agent or workflow run finished (coming soon)' },
];

const appName = (id: string) => APPS.find((a) => a.id === id)?.name ?? id;
const eventLabel = (id: string) => EVENTS.find((e) => e.id === id)?.label ?? id;

export function ChatNotifications({ projectId }: { projectId: string }) {
  const { session } = useSession();
  const base = `/projects/${encodeURIComponent(projectId)}/chat-notifications`;
  const list = useLoad(() => api<{ data: Channel[] }>('GET', base), [base]);
  const manage = can(session, 'settings.manage');
  const plan = useLoad(() => api<PlanFeatures>('GET', '/plan').catch(() => undefined), []);
  const included = plan.data?.features.chat_notifications?.enabled !== false;
  return (
    <section class="panel" aria-labelledby="chat-title">
      <h2 id="chat-title">Chat notifications</h2>
      <p>Post deployments and reader feedback to Slack, Discord or Microsoft Teams channels. Pro plan.</p>
      <ErrorNotice error={list.error} />
      {list.loading && !list.data ? <Loading /> : list.data && (
        list.data.data.length === 0
          ? <p class="muted">No channels yet.</p>
          : <ul class="chat-channels">{list.data.data.map((c) => <ChannelRow key={c.id} base={base} channel={c} manage={manage} onRemoved={list.reload} />)}</ul>
      )}
      {!included && (
        <Notice tone="warning">
          Chat notifications need the Pro plan. Channels you set up before are kept, and send again once you upgrade.
          {plan.data?.upgrade_url && <> <a href={plan.data.upgrade_url} target="_blank" rel="noopener noreferrer">Upgrade your plan</a></>}
        </Notice>
      )}
      {manage && included && <AddChannel base={base} onAdded={list.reload} />}
    </section>
  );
}

function ChannelRow({ base, channel, manage, onRemoved }: { base: string; channel: Channel; manage: boolean; onRemoved(): Promise<void> }) {
  const [result, setResult] = useState<TestResult>();
  const test = useSubmit(async () => setResult(await api<TestResult>('POST', `${base}/${encodeURIComponent(channel.id)}/test`)));
  const remove = useSubmit(async () => {
    if (!confirm(`Remove this ${appName(channel.app)} channel? Messages not yet sent to it are dropped.`)) return;
    await api('DELETE', `${base}/${encodeURIComponent(channel.id)}`);
    await onRemoved();
  });
  return (
    <li class="chat-channel">
      <p><strong>{appName(channel.app)}</strong> <code>{channel.url_hint}</code></p>
      <p class="muted">Sends: {channel.events.map(eventLabel).join('; ')}.</p>
      <ErrorNotice error={test.error ?? remove.error} />
      {result && (result.delivered
        ? <Notice tone="success">Test message sent.</Notice>
        : <Notice tone="warning">{appName(channel.app)} did not take the test message: {result.status_code ? `it answered ${result.status_code}` : result.error}.</Notice>)}
      {manage && (
        <div class="actions">
          <button type="button" disabled={test.pending} onClick={() => void test.run()}>Send test message</button>
          <button type="button" class="danger" disabled={remove.pending} onClick={() => void remove.run()}>Remove</button>
        </div>
      )}
    </li>
  );
}

function AddChannel({ base, onAdded }: { base: string; onAdded(): Promise<void> }) {
  const [app, setApp] = useState('slack');
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<string[]>(EVENTS.slice(0, 3).map((e) => e.id));
  const [added, setAdded] = useState(false);
  const submit = useSubmit(async () => {
    await api('POST', base, { app, url, events });
    setUrl('');
    setAdded(true);
    await onAdded();
  });
  const hint = APPS.find((a) => a.id === app)?.hint;
  return (
    <form onSubmit={submitWith(submit.run)} onInput={() => setAdded(false)} aria-label="Add a chat channel">
      <h3>Add a channel</h3>
      <ErrorNotice error={submit.error} />
      {added && <Notice tone="success">Channel added. Its address is kept secret: only its start and end are shown from now on.</Notice>}
      <div class="field">
        <label for="chat-app">App</label>
        <select id="chat-app" value={app} onChange={(e) => setApp(e.currentTarget.value)}>
          {APPS.map((a) => <option key={a.id} value={a.id}>{a.name}</option>)}
        </select>
      </div>
      <Field label="Webhook address" type="url" required autoCapitalize="none" spellcheck={false} value={url} hint={hint} onInput={(e) => setUrl(e.currentTarget.value.trim())} />
      <fieldset class="scopes">
        <legend>Send</legend>
        {EVENTS.map((ev) => (
          <label class="check" key={ev.id}>
            <input type="checkbox" checked={events.includes(ev.id)} onChange={(e) => setEvents(e.currentTarget.checked ? [...events, ev.id] : events.filter((x) => x !== ev.id))} />
            <span>{ev.label}</span>
          </label>
        ))}
      </fieldset>
      <button type="submit" disabled={submit.pending || !url || events.length === 0}>Add channel</button>
    </form>
  );
}
