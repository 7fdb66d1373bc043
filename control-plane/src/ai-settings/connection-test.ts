/**
 * "Test connection": one tiny streamed request to the saved model ("Reply with the word OK", at
 * most 5 tokens, 15 s), answered in people's words: it worked (with the model's reply and the
 * time to its first word), or why not and what to check.
 */
import { streamChat, ModelError, type ModelConfig, type ModelFailure } from './model-client.ts';

export interface ConnectionTestResult {
  ok: boolean;
  /** What happened, for people. */
  message: string;
  /** The model's first words (success only), at most 100 characters. */
  reply: string | null;
  /** Milliseconds to the first word (success only). */
  first_token_ms: number | null;
}

const TEST_TIMEOUT_MS = 15_000;

/** What to tell people about each failure. */
function explain(e: ModelError, config: ModelConfig): string {
  const host = (() => { try { return new URL(config.url).host; } catch { return config.url; } })();
  const words: Record<ModelFailure, string> = {
    refused_address: `The base URL cannot be used: ${e.detail}.`,
    unreachable: `Could not connect to ${host} (${e.detail}). Check the base URL and that the server is running and reachable from the platform.`,
    timeout: `${host} did not answer within ${TEST_TIMEOUT_MS / 1000} seconds. Check that the server is running and not overloaded.`,
    unauthorized: `${host} refused the API key (${e.detail}). Check the key, or paste a new one.`,
    not_found: `${host} has no chat endpoint at this base URL, or no model named "${config.model}" (${e.detail}). The base URL usually ends in /v1.`,
    rate_limited: `${host} is limiting requests or the account is out of credit (${e.detail}). Try again later or check the account.`,
    server_error: `${host} had an error answering (${e.detail}). Try again in a moment.`,
    bad_request: `${host} refused the request (${e.detail}). Check the model name "${config.model}".`,
    bad_stream: `${host} answered, but not as an OpenAI-compatible chat endpoint. Check the base URL.`,
  };
  return words[e.failure];
}

/** Sends the test request to `config`. Never throws. */
export async function testConnection(config: ModelConfig): Promise<ConnectionTestResult> {
  const started = performance.now();
  const abort = new AbortController();
  let reply = '';
  let firstMs: number | null = null;
  try {
    const test = { ...config, maxTokens: 5, firstTokenMs: TEST_TIMEOUT_MS, totalMs: TEST_TIMEOUT_MS, retries: 0 };
    for await (const piece of streamChat(test, [{ role: 'user', content: 'Reply with the word OK.' }], abort.signal)) {
      firstMs ??= Math.round(performance.now() - started);
      reply += piece;
      if (reply.length >= 100) break;
    }
  } catch (err) {
    const e = err instanceof ModelError ? err : new ModelError('bad_stream', 'unreadable answer', err);
    return { ok: false, message: explain(e, config), reply: null, first_token_ms: null };
  }
  if (firstMs === null) return { ok: false, message: `The model "${config.model}" answered with no text. Check the model name.`, reply: null, first_token_ms: null };
  return { ok: true, message: `Connected: "${config.model}" answered in ${(firstMs / 1000).toFixed(1)} s.`, reply: reply.slice(0, 100), first_token_ms: firstMs };
}
