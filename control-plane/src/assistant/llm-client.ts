/**
 * A streaming client for an OpenAI-compatible chat completions endpoint (`POST {url}/chat/completions`
 * with `stream: true`, answered as Server-Sent Events of `choices[0].delta.content`, ended by
 * `data: [DONE]`): OpenAI, Azure OpenAI's compatible route, vLLM, llama.cpp's server, Ollama and
 * most gateways speak it.
 */
import { AppError } from '../errors.ts';

/** Where answers are generated (from ASSISTANT_LLM_URL, ASSISTANT_LLM_KEY, ASSISTANT_LLM_MODEL). */
export interface LlmConfig {
  /** Base URL, e.g. `https://api.openai.com/v1`; `/chat/completions` is appended. */
  url: string;
  /** Sent as `Authorization: Bearer <key>` when set. */
  key?: string;
  model: string;
  /** No first token after this long ends the answer with `upstream_timeout`. Default 20 s. */
  firstTokenMs?: number;
  /** The whole answer may take this long. Default 60 s. */
  totalMs?: number;
  /** Most tokens an answer may have. Default 800. */
  maxTokens?: number;
}

export interface ChatMessage { role: 'system' | 'user' | 'assistant'; content: string }

const upstream = (message: string, cause?: unknown) => new AppError(502, 'upstream_error', message, { expose: true, cause });
const timedOut = () => new AppError(504, 'upstream_timeout', 'The AI model took too long to answer; try again in a moment', { expose: true });

/** Streams the answer's text pieces. Aborting `signal` (the visitor left) stops the upstream request. */
export async function* streamChat(config: LlmConfig, messages: ChatMessage[], signal: AbortSignal): AsyncGenerator<string> {
  const controller = new AbortController();
  const onAbort = () => controller.abort();
  signal.addEventListener('abort', onAbort);
  let timedOutFlag = false;
  const fire = () => { timedOutFlag = true; controller.abort(); };
  const timer = setTimeout(fire, config.firstTokenMs ?? 20_000);
  const total = setTimeout(fire, config.totalMs ?? 60_000);
  try {
    let res: Response;
    try {
      res = await fetch(`${config.url.replace(/\/+$/, '')}/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...(config.key ? { authorization: `Bearer ${config.key}` } : {}) },
        body: JSON.stringify({ model: config.model, messages, stream: true, temperature: 0.2, max_tokens: config.maxTokens ?? 800 }),
        signal: controller.signal,
      });
    } catch (err) {
      if (timedOutFlag) throw timedOut();
      throw upstream('The AI model could not be reached', err);
    }
    if (!res.ok || !res.body) {
      await res.body?.cancel().catch(() => undefined);
      throw upstream(`The AI model answered HTTP ${res.status}`);
    }
    const decoder = new TextDecoder();
    let buffer = '';
    let first = true;
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        let nl: number;
        while ((nl = buffer.indexOf('\n')) >= 0) {
          const line = buffer.slice(0, nl).replace(/\r$/, '');
          buffer = buffer.slice(nl + 1);
          if (!line.startsWith('data:')) continue;
          const data = line.slice(5).trim();
          if (data === '[DONE]') return;
          let piece: unknown;
          try { piece = JSON.parse(data)?.choices?.[0]?.delta?.content; } catch { throw upstream('The AI model sent an unreadable stream'); }
          if (typeof piece === 'string' && piece) {
            if (first) { first = false; clearTimeout(timer); }
            yield piece;
          }
        }
      }
    } catch (err) {
      if (err instanceof AppError) throw err;
      if (timedOutFlag) throw timedOut();
      if (signal.aborted) return;
      throw upstream('The AI model stream broke off', err);
    }
    if (timedOutFlag) throw timedOut();
  } finally {
    clearTimeout(timer);
    clearTimeout(total);
    signal.removeEventListener('abort', onAbort);
    controller.abort();
  }
}
