/**
 * The AI crawler and agent families, in one table: the name reported by the analytics API and
 * the User-Agent token that identifies it. Order matters only where one token contains another
 * (none do today); the first match wins. Tokens are matched case-insensitively as whole words,
 * so `ClaudeBot` never matches `Claude-User`.
 *
 * `purpose` says why the agent fetches: `training` (bulk crawl for model training), `search`
 * (indexing for an AI search product) or `user` (fetching live on behalf of a person asking a
 * chat assistant). It is documented for readers of the table; queries group by family.
 */
export interface AiFamily {
  /** Family name as reported in `crawlers[].family` and `ai_split[].family`. */
  family: string;
  /** Operator of the agent. */
  vendor: string;
  purpose: 'training' | 'search' | 'user';
  /** User-Agent product token. */
  token: string;
}

export const AI_FAMILIES: readonly AiFamily[] = [
  { family: 'GPTBot', vendor: 'OpenAI', purpose: 'training', token: 'GPTBot' },
  { family: 'OAI-SearchBot', vendor: 'OpenAI', purpose: 'search', token: 'OAI-SearchBot' },
  { family: 'ChatGPT-User', vendor: 'OpenAI', purpose: 'user', token: 'ChatGPT-User' },
  { family: 'ClaudeBot', vendor: 'Anthropic', purpose: 'training', token: 'ClaudeBot' },
  { family: 'Claude-User', vendor: 'Anthropic', purpose: 'user', token: 'Claude-User' },
  { family: 'Claude-SearchBot', vendor: 'Anthropic', purpose: 'search', token: 'Claude-SearchBot' },
  { family: 'Claude-Web', vendor: 'Anthropic', purpose: 'user', token: 'Claude-Web' },
  { family: 'anthropic-ai', vendor: 'Anthropic', purpose: 'training', token: 'anthropic-ai' },
  { family: 'PerplexityBot', vendor: 'Perplexity', purpose: 'search', token: 'PerplexityBot' },
  { family: 'Perplexity-User', vendor: 'Perplexity', purpose: 'user', token: 'Perplexity-User' },
  { family: 'Google-Extended', vendor: 'Google', purpose: 'training', token: 'Google-Extended' },
  { family: 'Applebot-Extended', vendor: 'Apple', purpose: 'training', token: 'Applebot-Extended' },
  { family: 'Bytespider', vendor: 'ByteDance', purpose: 'training', token: 'Bytespider' },
  { family: 'CCBot', vendor: 'Common Crawl', purpose: 'training', token: 'CCBot' },
  { family: 'Meta-ExternalAgent', vendor: 'Meta', purpose: 'training', token: 'meta-externalagent' },
  { family: 'Meta-ExternalFetcher', vendor: 'Meta', purpose: 'user', token: 'meta-externalfetcher' },
  { family: 'Amazonbot', vendor: 'Amazon', purpose: 'search', token: 'Amazonbot' },
  { family: 'cohere-ai', vendor: 'Cohere', purpose: 'user', token: 'cohere-ai' },
  { family: 'cohere-training-data-crawler', vendor: 'Cohere', purpose: 'training', token: 'cohere-training-data-crawler' },
  { family: 'DuckAssistBot', vendor: 'DuckDuckGo', purpose: 'user', token: 'DuckAssistBot' },
  { family: 'MistralAI-User', vendor: 'Mistral AI', purpose: 'user', token: 'MistralAI-User' },
  { family: 'YouBot', vendor: 'You.com', purpose: 'search', token: 'YouBot' },
  { family: 'Diffbot', vendor: 'Diffbot', purpose: 'training', token: 'Diffbot' },
  { family: 'AI2Bot', vendor: 'Allen Institute for AI', purpose: 'training', token: 'AI2Bot' },
  { family: 'PetalBot', vendor: 'Huawei', purpose: 'search', token: 'PetalBot' },
  { family: 'Timpibot', vendor: 'Timpi', purpose: 'training', token: 'Timpibot' },
  { family: 'ImagesiftBot', vendor: 'ImageSift', purpose: 'training', token: 'ImagesiftBot' },
  { family: 'Kangaroo Bot', vendor: 'Kangaroo LLM', purpose: 'training', token: 'Kangaroo Bot' },
  { family: 'PanguBot', vendor: 'Huawei', purpose: 'training', token: 'PanguBot' },
];

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
// A token ends at a non-token character (`/`, `;`, space, end): `Claude-User` is not `Claude-UserX`.
const MATCHERS = AI_FAMILIES.map((f) => ({ family: f.family, re: new RegExp(`(?:^|[^A-Za-z0-9-])${escape(f.token)}(?![A-Za-z0-9-])`, 'i') }));

/** The AI family a User-Agent belongs to, or null. */
export function aiFamilyOf(userAgent: string | undefined): string | null {
  if (!userAgent) return null;
  for (const m of MATCHERS) if (m.re.test(userAgent)) return m.family;
  return null;
}
