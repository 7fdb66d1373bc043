/**
 * The one client for a chat model: an OpenAI-compatible chat completions endpoint
 * (`POST {baseUrl}/chat/completions`, streamed), through the `openai` package, which speaks to
 * OpenAI, Azure OpenAI's v1 route, Ollama, vLLM and llama.cpp's server and handles the stream
 * format, retries of a refused connection or a 429/5xx before anything streamed, and errors by
 * status.
 *
 * Every request to an organization's endpoint goes through the platform's address guard
 * (docs/decisions/017-public-addresses-only.md): the host is resolved once, must be public unless
 * the operator lists its `host:port` in `AI_MODEL_PRIVATE_HOSTS` (a self-hosted model on the
 * same network), and the connection goes to the checked address only. The operator's own default
 * model (ASSISTANT_LLM_*) is trusted as configured.
 *
 * Nothing of the process environment reaches a request: the key, the organization and the project
 * headers are always given explicitly (the package would otherwise read OPENAI_API_KEY).
 */
import OpenAI from 'openai';
import { Agent, buildConnector, fetch as undiciFetch } from 'undici';
import { AppError } from '../errors.ts';
import { checkedAddress, pinnedLookup } from '../outbound/safe-fetch.ts';
import { canonicalAddress } from '../outbound/public-address.ts';

/** Where answers are generated. */
export interface ModelConfig {
  /** Base URL, e.g. `https://api.openai.com/v1`; `/chat/completions` is appended. */
  url: string;
  /** Sent as `Authorization: Bearer <key>` when set; no header without one. */
  key?: string;
  model: string;
  /** No first token after this long ends the answer with `upstream_timeout`. Default 20 s. */
  firstTokenMs?: number;
  /** The whole answer may take this long. Default 60 s. */
  totalMs?: number;
  /** Most tokens an answer may have. Default 800. */
  maxTokens?: number;
  /**
   * Set for an organization's endpoint: the address guard applies, with these `host:port` pairs
   * allowed although private. Unset: the operator's endpoint, connected to as configured.
   */
  guard?: { allowHosts: readonly string[] };
  /** Retries of a failed connection or a 429/5xx answer before anything streamed. Default 1. */
  retries?: number;
}

export interface ChatMessage { role: 'system' | 'user' | 'assistant'; content: string }

/** Why a model did not answer, for logs and for the dashboard's connection test. */
export type ModelFailure = 'refused_address' | 'unreachable' | 'timeout' | 'unauthorized' | 'not_found' | 'rate_limited' | 'server_error' | 'bad_request' | 'bad_stream';

/** A model call that failed: 502 `upstream_error` or 504 `upstream_timeout`, with its `failure`. */
export class ModelError extends AppError {
  readonly failure: ModelFailure;
  readonly detail: string;
  constructor(failure: ModelFailure, detail: string, cause?: unknown) {
    const timeout = failure === 'timeout';
    super(timeout ? 504 : 502, timeout ? 'upstream_timeout' : 'upstream_error',
      timeout ? 'The AI model took too long to answer; try again in a moment' : 'The AI model could not answer', { expose: true, cause });
    this.failure = failure;
    this.detail = detail;
  }
}

/** A fetch whose every connection goes to the address checked for its URL. */
function guardedFetch(allowHosts: readonly string[], agents: Agent[]): typeof fetch {
  return (async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
    let address: string;
    try {
      address = await checkedAddress(url, 'base_url', allowHosts);
    } catch (err) {
      throw new ModelError('refused_address', (err as AppError).message.replace(/^base_url: /, ''), err);
    }
    const connect = buildConnector({ lookup: pinnedLookup(address) as never });
    const agent = new Agent({
      connect(opts, cb) {
        connect(opts, (err, socket) => {
          if (err || !socket) { cb(err ?? new Error('no socket'), null); return; }
          // Nothing is written unless the peer is the address just checked.
          if (canonicalAddress(socket.remoteAddress ?? '') !== canonicalAddress(address)) {
            socket.destroy();
            cb(new Error(`connected to ${socket.remoteAddress}, not the checked ${address}`), null);
            return;
          }
          cb(null, socket);
        });
      },
    });
    agents.push(agent);
    return undiciFetch(url, { ...(init as object), dispatcher: agent } as never) as unknown as Response;
  }) as typeof fetch;
}

function client(config: ModelConfig, agents: Agent[]): OpenAI {
  return new OpenAI({
    baseURL: config.url.replace(/\/+$/, ''),
    // A placeholder when there is no key: the header is then removed below.
    apiKey: config.key || 'no-key',
    organization: null,
    project: null,
    defaultHeaders: config.key ? {} : { Authorization: null },
    maxRetries: config.retries ?? 1,
    timeout: config.firstTokenMs ?? 20_000,
    ...(config.guard ? { fetch: guardedFetch(config.guard.allowHosts, agents) } : {}),
  });
}

/** The model's failure as a {@link ModelError} (the detail names the HTTP status, never a body the endpoint chose). */
function failureOf(err: unknown, timedOut: boolean): ModelError {
  if (err instanceof ModelError) return err;
  if (timedOut || err instanceof OpenAI.APIConnectionTimeoutError) return new ModelError('timeout', 'no answer in time', err);
  const cause = err instanceof OpenAI.APIConnectionError ? (err.cause as Error | undefined) : undefined;
  if (cause instanceof ModelError) return cause;
  if (err instanceof OpenAI.APIError && typeof err.status === 'number') {
    const s = err.status;
    if (s === 401 || s === 403) return new ModelError('unauthorized', `HTTP ${s}`, err);
    if (s === 404) return new ModelError('not_found', `HTTP ${s}`, err);
    if (s === 429) return new ModelError('rate_limited', `HTTP ${s}`, err);
    if (s >= 500) return new ModelError('server_error', `HTTP ${s}`, err);
    return new ModelError('bad_request', `HTTP ${s}`, err);
  }
  if (err instanceof OpenAI.APIConnectionError) {
    // undici wraps the socket error ("fetch failed" → ECONNREFUSED, ENOTFOUND …).
    let code: string | undefined;
    for (let inner: unknown = err.cause; inner instanceof Error; inner = inner.cause) {
      if (inner instanceof ModelError) return inner;
      code ??= (inner as { code?: string }).code;
    }
    return new ModelError('unreachable', code ?? 'connection failed', err);
  }
  return new ModelError('bad_stream', 'unreadable answer', err);
}

/**
 * Streams the answer's text pieces. Aborting `signal` (the reader left) stops the upstream
 * request and ends the stream quietly; failures throw {@link ModelError}.
 */
export async function* streamChat(config: ModelConfig, messages: ChatMessage[], signal: AbortSignal): AsyncGenerator<string> {
  for await (const chunk of modelChunks(config, { messages }, signal)) {
    const piece = chunk.choices?.[0]?.delta?.content;
    if (typeof piece === 'string' && piece) yield piece;
  }
}

/**
 * The streamed chunks of one chat completion, with what every call shares: the caller's
 * `signal` (aborting ends the stream quietly), a first-token and a total timeout (a
 * {@link ModelError} `timeout`), failures as {@link ModelError}, and the sockets closed after.
 */
async function* modelChunks(
  config: ModelConfig, body: Omit<OpenAI.Chat.Completions.ChatCompletionCreateParamsStreaming, 'model' | 'stream'>, signal: AbortSignal,
): AsyncGenerator<OpenAI.Chat.Completions.ChatCompletionChunk> {
  const controller = new AbortController();
  const onAbort = () => controller.abort();
  signal.addEventListener('abort', onAbort);
  let timedOut = false;
  const fire = () => { timedOut = true; controller.abort(); };
  const firstToken = setTimeout(fire, config.firstTokenMs ?? 20_000);
  const total = setTimeout(fire, config.totalMs ?? 60_000);
  const agents: Agent[] = [];
  try {
    let stream: AsyncIterable<OpenAI.Chat.Completions.ChatCompletionChunk>;
    try {
      stream = await client(config, agents).chat.completions.create(
        { model: config.model, stream: true, temperature: 0.2, max_tokens: config.maxTokens ?? 800, ...body },
        { signal: controller.signal },
      );
    } catch (err) {
      if (signal.aborted && !timedOut) return;
      throw failureOf(err, timedOut);
    }
    try {
      for await (const chunk of stream) {
        const delta = chunk.choices?.[0]?.delta;
        if ((typeof delta?.content === 'string' && delta.content) || delta?.tool_calls?.length) clearTimeout(firstToken);
        yield chunk;
      }
    } catch (err) {
      if (signal.aborted && !timedOut) return;
      throw failureOf(err, timedOut);
    }
    if (timedOut) throw new ModelError('timeout', 'no answer in time');
  } finally {
    clearTimeout(firstToken);
    clearTimeout(total);
    signal.removeEventListener('abort', onAbort);
    controller.abort();
    for (const agent of agents) void agent.destroy().catch(() => undefined);
  }
}

/** A tool the model may call: a name, what it does, and its arguments' JSON schema. */
export interface ToolSpec { name: string; description: string; parameters: Record<string, unknown> }

/** A tool call as the model made it: the arguments are the model's raw JSON text, unchecked. */
export interface ToolCall { id: string; name: string; arguments: string }

/** What one model turn produced: its text, its tool calls and the endpoint's own token count. */
export interface TurnResult {
  text: string;
  toolCalls: ToolCall[];
  /** From the endpoint's usage report; null when it sent none. */
  usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number } | null;
}

/** A message of a conversation with tool calls (the agent's). */
export type TurnMessage =
  | ChatMessage
  | { role: 'assistant'; content: string | null; tool_calls: { id: string; type: 'function'; function: { name: string; arguments: string } }[] }
  | { role: 'tool'; tool_call_id: string; content: string };

/**
 * One streamed model turn with the usage report asked for (`stream_options.include_usage`) and,
 * when `tools` are given, tool calls assembled from their streamed pieces. `onText` receives each
 * text piece as it arrives. Timeouts, retries, the address guard and failures as {@link streamChat};
 * aborting `signal` ends the turn with what arrived so far.
 */
export async function chatTurn(config: ModelConfig, messages: TurnMessage[], signal: AbortSignal, opts: { tools?: ToolSpec[]; onText?: (piece: string) => void } = {}): Promise<TurnResult> {
  const result: TurnResult = { text: '', toolCalls: [], usage: null };
  const calls = new Map<number, ToolCall>();
  const body = {
    messages: messages as OpenAI.Chat.Completions.ChatCompletionMessageParam[], stream_options: { include_usage: true },
    ...(opts.tools?.length ? { tools: opts.tools.map((t) => ({ type: 'function' as const, function: t })) } : {}),
  };
  for await (const chunk of modelChunks(config, body, signal)) {
    if (chunk.usage) result.usage = { prompt_tokens: chunk.usage.prompt_tokens ?? 0, completion_tokens: chunk.usage.completion_tokens ?? 0, total_tokens: chunk.usage.total_tokens ?? 0 };
    const delta = chunk.choices?.[0]?.delta;
    if (!delta) continue;
    if (typeof delta.content === 'string' && delta.content) {
      result.text += delta.content;
      opts.onText?.(delta.content);
    }
    for (const piece of delta.tool_calls ?? []) {
      const call = calls.get(piece.index) ?? { id: '', name: '', arguments: '' };
      if (piece.id) call.id = piece.id;
      if (piece.function?.name) call.name += piece.function.name;
      if (piece.function?.arguments) call.arguments += piece.function.arguments;
      calls.set(piece.index, call);
    }
  }
  // Aborted by the caller: what arrived so far, without half-made tool calls.
  if (signal.aborted) return result;
  result.toolCalls = [...calls.entries()].sort(([a], [b]) => a - b).map(([i, c]) => ({ ...c, id: c.id || `call_${i}` }));
  return result;
}
