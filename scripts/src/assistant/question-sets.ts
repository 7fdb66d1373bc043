/**
 * Questions for the assistant's retrieval benchmark, each with the page that answers it, written
 * in a visitor's words (not copied from the page): 32 about the bundled example site
 * (`builder/examples/acme-docs`), and 30 facts planted in pages of a generated corpus, each asked
 * in other words than the page uses.
 */

export interface Question { q: string; page: string }

export const ACME_QUESTIONS: Question[] = [
  { q: 'How many requests can I make per minute?', page: '/reference/api' },
  { q: 'What does the API return when I exceed the rate limit?', page: '/reference/api' },
  { q: 'Can the rate limit be increased?', page: '/reference/api' },
  { q: 'How do I authenticate my requests?', page: '/reference/api' },
  { q: 'Which endpoint schedules a launch?', page: '/reference/api' },
  { q: 'How do I follow a launch by its id?', page: '/reference/api' },
  { q: 'Do endpoints support idempotency keys?', page: '/reference/api' },
  { q: 'Is the rate limit per account or per key?', page: '/reference/api' },
  { q: 'How do I install the command line tool?', page: '/quickstart' },
  { q: 'Where do I create an API key in the dashboard?', page: '/quickstart' },
  { q: 'How can I launch a test rocket without firing it?', page: '/quickstart' },
  { q: 'Is there a Python client example?', page: '/quickstart' },
  { q: 'How do I get started in five minutes?', page: '/quickstart' },
  { q: 'When were telemetry webhooks released?', page: '/changelog' },
  { q: 'What changed in version 2.0.0?', page: '/changelog' },
  { q: 'What breaking change removed legacy_stage?', page: '/changelog' },
  { q: 'How often are telemetry events delivered?', page: '/changelog' },
  { q: 'Are rocket stages typed objects now?', page: '/changelog' },
  { q: 'How do I add line numbers to a code block?', page: '/guides/code-blocks' },
  { q: 'How can I highlight specific lines in a code sample?', page: '/guides/code-blocks' },
  { q: 'How do I make long code lines wrap?', page: '/guides/code-blocks' },
  { q: 'Can a long code block be collapsed with a show more button?', page: '/guides/code-blocks' },
  { q: 'How do I give a code block a file name title?', page: '/guides/code-blocks' },
  { q: 'How do I dim every line except one in a code block?', page: '/guides/code-blocks' },
  { q: 'How can I show content only to AI agents?', page: '/guides/visibility' },
  { q: 'How do I hide a paragraph from the Markdown exports?', page: '/guides/visibility' },
  { q: 'How do I reuse the same MDX fragment on several pages?', page: '/guides/snippets' },
  { q: 'Why use snippets instead of copying text?', page: '/guides/snippets' },
  { q: 'What is a launch window?', page: '/reference/glossary' },
  { q: 'What does telemetry mean in these docs?', page: '/reference/glossary' },
  { q: 'What can I build with the Acme API?', page: '/' },
  { q: 'Can I build telemetry dashboards?', page: '/' },
];

/** A fact planted in a generated page: a section heading, its sentence, and a question in other words. */
export interface PlantedFact { heading: string; fact: string; q: string }

export const PLANTED_FACTS: PlantedFact[] = [
  { heading: 'Audit log retention', fact: 'Audit log entries are retained for 400 days and then purged.', q: 'How long are audit logs kept?' },
  { heading: 'Maximum upload size', fact: 'Each uploaded artifact may weigh at most 750 megabytes.', q: 'What is the biggest artifact I can upload?' },
  { heading: 'Rotating signing secrets', fact: 'Webhook signing secrets can be rotated with a 24 hour overlap window.', q: 'Can I rotate the webhook signing secret without downtime?' },
  { heading: 'Supported regions', fact: 'Workloads run in Frankfurt, Virginia, Singapore and São Paulo.', q: 'Which regions can my workloads run in?' },
  { heading: 'Invoice currency', fact: 'Invoices are issued in euros, dollars or pounds depending on the billing country.', q: 'In which currency will I be invoiced?' },
  { heading: 'Single sign-on with Okta', fact: 'Okta is connected through SAML 2.0 with just-in-time provisioning.', q: 'How do I set up Okta login?' },
  { heading: 'Preview expiry', fact: 'Preview environments are destroyed automatically after 14 days of inactivity.', q: 'When do preview environments get deleted?' },
  { heading: 'Custom domain certificates', fact: 'TLS certificates for custom domains are issued by Let’s Encrypt and renewed 30 days before expiry.', q: 'Who issues the HTTPS certificate for my domain?' },
  { heading: 'Build cache eviction', fact: 'The build cache is evicted least-recently-used once it passes 5 gigabytes.', q: 'What happens when the build cache gets too large?' },
  { heading: 'Team seat limits', fact: 'A team workspace holds up to 250 seats before an enterprise contract is needed.', q: 'How many members can a team workspace have?' },
  { heading: 'Deleting an organization', fact: 'Deleting an organization removes its data after a 30 day grace period.', q: 'Is deleting my organization immediate?' },
  { heading: 'GraphQL query depth', fact: 'GraphQL queries nested deeper than 12 levels are rejected.', q: 'How deeply can GraphQL queries nest?' },
  { heading: 'Pagination cursors', fact: 'Pagination cursors stay valid for 15 minutes after they are issued.', q: 'How long can I reuse a pagination cursor?' },
  { heading: 'Exporting analytics', fact: 'Analytics can be exported as CSV or Parquet files from the insights tab.', q: 'Can I download my analytics as a spreadsheet?' },
  { heading: 'Two-factor recovery codes', fact: 'Ten one-time recovery codes are generated when two-factor authentication is enabled.', q: 'What if I lose my authenticator phone?' },
  { heading: 'Environment variable limits', fact: 'A project may define 500 environment variables of up to 64 kilobytes each.', q: 'How many environment variables can a project have?' },
  { heading: 'Cron schedules', fact: 'Scheduled jobs use cron syntax and run at most once per minute.', q: 'How frequently can a scheduled job run?' },
  { heading: 'IP allowlisting', fact: 'Outbound traffic leaves from a fixed set of static egress addresses you can allowlist.', q: 'Which IP addresses should my firewall allow?' },
  { heading: 'Refund policy', fact: 'Annual plans are refundable pro rata within the first 60 days.', q: 'Can I get my money back on a yearly plan?' },
  { heading: 'Monorepo support', fact: 'Monorepos are supported by setting a root directory for each project.', q: 'Does it work with a monorepo?' },
  { heading: 'Terraform provider', fact: 'An official Terraform provider manages projects, domains and environment variables as code.', q: 'Can I manage my infrastructure as code with Terraform?' },
  { heading: 'Status page subscriptions', fact: 'Incidents are announced on the status page, which offers email and RSS subscriptions.', q: 'How do I get notified about outages?' },
  { heading: 'Data residency', fact: 'Enterprise customers can pin all stored data to the European Union.', q: 'Can my data stay inside the EU?' },
  { heading: 'Rollback', fact: 'Any previous deployment can be promoted back to production instantly with the rollback command.', q: 'How do I revert to an earlier release?' },
  { heading: 'Websocket timeouts', fact: 'Idle websocket connections are closed after 100 seconds without traffic.', q: 'Why does my websocket disconnect when idle?' },
  { heading: 'Log drains', fact: 'Runtime logs can be streamed to Datadog, Logtail or any HTTPS log drain.', q: 'Can I forward runtime logs to Datadog?' },
  { heading: 'Password policy', fact: 'Passwords need at least 12 characters and are checked against breached password lists.', q: 'What are the password requirements?' },
  { heading: 'Concurrent builds', fact: 'The pro plan runs 3 builds concurrently; additional builds wait in a queue.', q: 'How many builds can run in parallel on pro?' },
  { heading: 'Image optimization', fact: 'Images are resized and converted to AVIF or WebP on the fly at the edge.', q: 'Are images converted to modern formats automatically?' },
  { heading: 'Support response times', fact: 'Enterprise support answers urgent tickets within one hour, around the clock.', q: 'How fast does enterprise support respond?' },
];
