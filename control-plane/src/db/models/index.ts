/**
 * The mongoose models, registered on one connection. Every persistence path goes through these.
 */
import type { Connection, Model } from 'mongoose';
import { collapseFreshQueued } from '../collapse-fresh-queued.ts';
import { backfillQueueOrgs } from '../backfill-queue-orgs.ts';
import { analyticsEventSchema, analyticsSaltSchema, type AnalyticsEvent, type AnalyticsSalt } from './analytics-event.ts';
import { analyticsDayUniquesSchema, analyticsRollupSchema, analyticsVisitorDaySchema, analyticsVisitorHourSchema, type AnalyticsDayUniques, type AnalyticsRollup, type AnalyticsVisitorDay, type AnalyticsVisitorHour } from './analytics-rollup.ts';
import { apiKeySchema, type ApiKey } from './api-key.ts';
import { organizationSchema, type Organization } from './organization.ts';
import { projectSchema, type Project } from './project.ts';
import { usageCounterSchema, type UsageCounter } from './usage-counter.ts';
import { deploymentSchema, OLD_FRESH_QUEUED_INDEX, type Deployment } from './deployment.ts';
import { claimHeadSchema, type ClaimHead } from './claim-head.ts';
import { pushIntentSchema, type PushIntent } from './push-intent.ts';
import { pageSchema, type Page } from './page.ts';
import { webhookDeliverySchema, type WebhookDelivery } from './webhook-delivery.ts';
import { auditEntrySchema, type AuditEntry } from './audit-entry.ts';
import { serverSecretSchema, type ServerSecret } from './server-secret.ts';
import { webhookEndpointSchema, type WebhookEndpoint } from './webhook-endpoint.ts';
import { webhookMessageSchema, type WebhookMessage } from './webhook-message.ts';
import { chatChannelSchema, type ChatChannel } from './chat-channel.ts';
import { userSchema, type User } from './user.ts';
import { membershipSchema, type Membership } from './membership.ts';
import { sessionSchema, type Session } from './session.ts';
import { ownerClaimSchema, type OwnerClaim } from './owner-claim.ts';
import { invitationSchema, type Invitation } from './invitation.ts';
import { domainSchema, migrateLegacyDomains, type Domain } from './domain.ts';
import { previewSchema, type Preview } from './preview.ts';
import { githubInstallationSchema, type GithubInstallation } from './github-installation.ts';
import { ssoConnectionSchema, type SsoConnection } from './sso-connection.ts';
import { ssoDomainSchema, type SsoDomain } from './sso-domain.ts';
import { ssoPendingSchema, type SsoPending } from './sso-pending.ts';
import { ssoAssertionSchema, type SsoAssertion } from './sso-assertion.ts';
import { publishJournalSchema, type PublishJournal } from './publish-journal.ts';
import { editorDraftSchema, type EditorDraft } from './editor-draft.ts';
import { editorDocumentSchema, type EditorDocument } from './editor-document.ts';
import { acmeAccountSchema, acmeChallengeSchema, certificateSchema, type AcmeAccount, type AcmeChallenge, type Certificate } from './certificate.ts';

export interface Models {
  Organization: Model<Organization>;
  ApiKey: Model<ApiKey>;
  Project: Model<Project>;
  UsageCounter: Model<UsageCounter>;
  Deployment: Model<Deployment>;
  ClaimHead: Model<ClaimHead>;
  PushIntent: Model<PushIntent>;
  Page: Model<Page>;
  WebhookDelivery: Model<WebhookDelivery>;
  AnalyticsEvent: Model<AnalyticsEvent>;
  AnalyticsSalt: Model<AnalyticsSalt>;
  AnalyticsRollup: Model<AnalyticsRollup>;
  AnalyticsVisitorHour: Model<AnalyticsVisitorHour>;
  AnalyticsVisitorDay: Model<AnalyticsVisitorDay>;
  AnalyticsDayUniques: Model<AnalyticsDayUniques>;
  AuditEntry: Model<AuditEntry>;
  ServerSecret: Model<ServerSecret>;
  WebhookEndpoint: Model<WebhookEndpoint>;
  WebhookMessage: Model<WebhookMessage>;
  ChatChannel: Model<ChatChannel>;
  User: Model<User>;
  Membership: Model<Membership>;
  Session: Model<Session>;
  OwnerClaim: Model<OwnerClaim>;
  Invitation: Model<Invitation>;
  Domain: Model<Domain>;
  Preview: Model<Preview>;
  GithubInstallation: Model<GithubInstallation>;
  SsoConnection: Model<SsoConnection>;
  SsoDomain: Model<SsoDomain>;
  SsoPending: Model<SsoPending>;
  SsoAssertion: Model<SsoAssertion>;
  PublishJournal: Model<PublishJournal>;
  Certificate: Model<Certificate>;
  AcmeAccount: Model<AcmeAccount>;
  AcmeChallenge: Model<AcmeChallenge>;
  EditorDraft: Model<EditorDraft>;
  EditorDocument: Model<EditorDocument>;
}

const cache = new WeakMap<Connection, Models>();

/** The models bound to `connection` (created once per connection). */
export function models(connection: Connection): Models {
  let m = cache.get(connection);
  if (!m) {
    m = {
      Organization: connection.model<Organization>('Organization', organizationSchema, 'organizations'),
      ApiKey: connection.model<ApiKey>('ApiKey', apiKeySchema, 'api_keys'),
      Project: connection.model<Project>('Project', projectSchema, 'projects'),
      UsageCounter: connection.model<UsageCounter>('UsageCounter', usageCounterSchema, 'usage_counters'),
      Deployment: connection.model<Deployment>('Deployment', deploymentSchema, 'deployments'),
      ClaimHead: connection.model<ClaimHead>('ClaimHead', claimHeadSchema, 'claim_heads'),
      PushIntent: connection.model<PushIntent>('PushIntent', pushIntentSchema, 'push_intents'),
      Page: connection.model<Page>('Page', pageSchema, 'pages'),
      WebhookDelivery: connection.model<WebhookDelivery>('WebhookDelivery', webhookDeliverySchema, 'webhook_deliveries'),
      AnalyticsEvent: connection.model<AnalyticsEvent>('AnalyticsEvent', analyticsEventSchema, 'analytics_events'),
      AnalyticsSalt: connection.model<AnalyticsSalt>('AnalyticsSalt', analyticsSaltSchema, 'analytics_salts'),
      AnalyticsRollup: connection.model<AnalyticsRollup>('AnalyticsRollup', analyticsRollupSchema, 'analytics_rollups'),
      AnalyticsVisitorHour: connection.model<AnalyticsVisitorHour>('AnalyticsVisitorHour', analyticsVisitorHourSchema, 'analytics_visitor_hours'),
      AnalyticsVisitorDay: connection.model<AnalyticsVisitorDay>('AnalyticsVisitorDay', analyticsVisitorDaySchema, 'analytics_visitor_days'),
      AnalyticsDayUniques: connection.model<AnalyticsDayUniques>('AnalyticsDayUniques', analyticsDayUniquesSchema, 'analytics_day_uniques'),
      AuditEntry: connection.model<AuditEntry>('AuditEntry', auditEntrySchema, 'audit_log'),
      ServerSecret: connection.model<ServerSecret>('ServerSecret', serverSecretSchema, 'server_secrets'),
      WebhookEndpoint: connection.model<WebhookEndpoint>('WebhookEndpoint', webhookEndpointSchema, 'webhook_endpoints'),
      WebhookMessage: connection.model<WebhookMessage>('WebhookMessage', webhookMessageSchema, 'webhook_messages'),
      ChatChannel: connection.model<ChatChannel>('ChatChannel', chatChannelSchema, 'chat_channels'),
      User: connection.model<User>('User', userSchema, 'users'),
      Membership: connection.model<Membership>('Membership', membershipSchema, 'memberships'),
      Session: connection.model<Session>('Session', sessionSchema, 'sessions'),
      OwnerClaim: connection.model<OwnerClaim>('OwnerClaim', ownerClaimSchema, 'owner_claims'),
      Invitation: connection.model<Invitation>('Invitation', invitationSchema, 'invitations'),
      Domain: connection.model<Domain>('Domain', domainSchema, 'domains'),
      Preview: connection.model<Preview>('Preview', previewSchema, 'previews'),
      GithubInstallation: connection.model<GithubInstallation>('GithubInstallation', githubInstallationSchema, 'github_installations'),
      SsoConnection: connection.model<SsoConnection>('SsoConnection', ssoConnectionSchema, 'sso_connections'),
      SsoDomain: connection.model<SsoDomain>('SsoDomain', ssoDomainSchema, 'sso_domains'),
      SsoPending: connection.model<SsoPending>('SsoPending', ssoPendingSchema, 'sso_pending'),
      SsoAssertion: connection.model<SsoAssertion>('SsoAssertion', ssoAssertionSchema, 'sso_assertions'),
      PublishJournal: connection.model<PublishJournal>('PublishJournal', publishJournalSchema, 'publish_journal'),
      Certificate: connection.model<Certificate>('Certificate', certificateSchema, 'certificates'),
      AcmeAccount: connection.model<AcmeAccount>('AcmeAccount', acmeAccountSchema, 'acme_accounts'),
      AcmeChallenge: connection.model<AcmeChallenge>('AcmeChallenge', acmeChallengeSchema, 'acme_challenges'),
      EditorDocument: connection.model<EditorDocument>('EditorDocument', editorDocumentSchema, 'editor_documents'),
      EditorDraft: connection.model<EditorDraft>('EditorDraft', editorDraftSchema, 'editor_drafts'),
    };
    cache.set(connection, m);
  }
  return m;
}

/**
 * Creates the indexes every model declares (unique slugs, counters, one fresh queued deployment
 * per site) before serving, after folding together data that would violate them.
 */
export async function syncIndexes(connection: Connection): Promise<void> {
  const m = models(connection);
  await collapseFreshQueued(m, new Date());
  // Claims read the queue by organization (deploy/queue-heads.ts): open deployments from before get theirs.
  await backfillQueueOrgs(m);
  // The per-project index became per site (previews); the old one would refuse a preview queued beside production.
  if (await m.Deployment.collection.indexExists(OLD_FRESH_QUEUED_INDEX).catch(() => false)) await m.Deployment.collection.dropIndex(OLD_FRESH_QUEUED_INDEX);
  // Domains once keyed by hostname: the unique index on verified hostnames needs the field.
  await migrateLegacyDomains(m.Domain);
  for (const model of Object.values(m)) await (model as Model<unknown>).createIndexes();
}

export type { AnalyticsEvent, AnalyticsSalt, ApiKey, AuditEntry, ServerSecret, WebhookEndpoint, WebhookMessage, ChatChannel, Organization, Project, UsageCounter, Deployment, ClaimHead, PushIntent, Page, WebhookDelivery, User, Membership, Session, OwnerClaim, Invitation, Domain, Preview, GithubInstallation, SsoConnection, SsoDomain, SsoPending, SsoAssertion, PublishJournal, Certificate, AcmeAccount, AcmeChallenge, EditorDraft };
