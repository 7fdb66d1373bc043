/**
 * The chat messages of each event, in the platform's words with the customer's text marked
 * (chat-message.ts). Lengths are capped here: a name or an error line at 200 characters, a
 * comment at 1000, at most 10 failed pages and then "…and N more".
 */
import type { Deployment } from '../db/models/index.ts';
import { customer, type ChatMessage } from './chat-message.ts';
import { oneLine } from './neutralise.ts';

/** Failed pages (or error lines) a message lists before "…and N more". */
export const MAX_ERROR_LINES = 10;
const NAME_MAX = 200;
const COMMENT_MAX = 1000;

const named = (text: string) => customer(oneLine(text, NAME_MAX));

/** The error lines of a deployment, the first {@link MAX_ERROR_LINES}, then how many more there were. */
export function errorLines(error: string | null | undefined): string[] {
  const lines = (error ?? '').split('\n').map((l) => oneLine(l, NAME_MAX)).filter(Boolean);
  if (lines.length <= MAX_ERROR_LINES) return lines;
  return [...lines.slice(0, MAX_ERROR_LINES), `…and ${lines.length - MAX_ERROR_LINES} more`];
}

type DeploymentFields = Pick<Deployment, 'status' | 'branch' | 'commit_sha' | 'pages_total' | 'pages_failed' | 'error' | 'preview_url'> & { _id: string };

/** `deployment.succeeded` or `deployment.failed`, with links to the deployment in the dashboard and to the site. */
export function deploymentMessage(d: DeploymentFields, project: { name: string }, links: { deploymentUrl: string; siteUrl: string }, at: Date): ChatMessage {
  const failed = d.status === 'failed';
  const facts: ChatMessage['facts'] = [];
  if (d.branch) facts.push({ label: d.preview_url ? 'Preview of branch' : 'Branch', value: [named(d.branch)] });
  if (d.commit_sha) facts.push({ label: 'Commit', value: [customer(d.commit_sha.slice(0, 7))] });
  if (!failed) facts.push({ label: 'Pages', value: [`${d.pages_total ?? 0} built${d.pages_failed ? `, ${d.pages_failed} failed` : ''}`] });
  const lines = errorLines(d.error);
  return {
    event: failed ? 'deployment.failed' : 'deployment.succeeded',
    outcome: failed ? 'failure' : 'success',
    title: [failed ? 'Deployment failed: ' : 'Deployment succeeded: ', named(project.name)],
    facts,
    ...(lines.length ? { details: { label: failed ? 'Errors' : 'Failed pages', lines } } : {}),
    links: [{ label: 'View deployment', url: links.deploymentUrl }, { label: failed ? 'Open the live site' : 'Open the site', url: d.preview_url ?? links.siteUrl }],
    at,
  };
}

/** `feedback.negative`: a reader found a page unhelpful, with their comment when they left one. */
export function feedbackMessage(project: { name: string }, page: { path: string; title?: string; url: string }, comment: string | undefined, at: Date): ChatMessage {
  const text = comment ? oneLine(comment, COMMENT_MAX) : '';
  return {
    event: 'feedback.negative',
    outcome: 'notice',
    title: ['A reader found a page unhelpful on ', named(project.name)],
    facts: [{ label: 'Page', value: page.title ? [named(page.title), ' (', named(page.path), ')'] : [named(page.path)] }],
    ...(text ? { details: { label: 'Comment', lines: [text] } } : {}),
    links: [{ label: 'Open the page', url: page.url }],
    at,
  };
}

/** The message of a channel's "send test message" action. */
export function testMessage(project: { name: string }, siteUrl: string, at: Date): ChatMessage {
  return {
    event: 'deployment.succeeded',
    outcome: 'success',
    title: ['Test notification for ', named(project.name)],
    facts: [{ label: 'What this is', value: ['This channel will receive the events it subscribed to.'] }],
    links: [{ label: 'Open the site', url: siteUrl }],
    at,
  };
}
