/**
 * A dereferenced AsyncAPI document → the view of one channel (see `ApiChannelView`). AsyncAPI
 * 3.x is read as written: the channel's `address`, `messages`, `parameters`, `servers` and
 * `bindings`, and the `operations` whose `channel` is it; 2.x's differences (the key is the
 * address, `publish`/`subscribe` operations holding the message, `oneOf` messages, server `url`)
 * are mapped onto the same view. Payloads are listed with the schema view of API pages.
 */
import type { ApiChannelMessage, ApiChannelView, ApiField } from '@folio/site-template/shared/api-types.ts';
import { bodyOf } from './api-view.ts';
import type { AsyncApiDocument } from './read-asyncapi.ts';
import { exampleOf, fieldOf, pageExpansion, schemaNames, type Expansion } from './schema-fields.ts';

type Obj = Record<string, any>;

const isObject = (v: unknown): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v);
const text = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : undefined);
/** Messages, servers and operations one channel lists at most. */
const MAX_ITEMS = 100;

/** The channels of the document by their key, in its order. */
export function channelLabels(doc: AsyncApiDocument): string[] {
  return Object.keys(isObject(doc.channels) ? doc.channels : {});
}

/** The first example payload a message gives, else one made from its schema. */
function messageExample(message: Obj): unknown {
  const first = Array.isArray(message.examples) ? message.examples.find((e: unknown) => isObject(e) && e.payload !== undefined) : undefined;
  return first ? first.payload : exampleOf(message.payload);
}

function messageOf(state: Expansion, key: string, message: Obj, action?: string): ApiChannelMessage {
  const out: ApiChannelMessage = { name: text(message.name) ?? text(message.messageId) ?? key };
  for (const field of ['title', 'summary', 'description'] as const) if (text(message[field])) out[field] = text(message[field]);
  if (action) out.action = action;
  if (isObject(message.payload)) out.payload = bodyOf(state, text(message.contentType) ?? 'application/json', message.payload, messageExample(message));
  return out;
}

/** A 2.x operation's messages (`message`, or its `oneOf`). */
const v2Messages = (op: Obj): Obj[] => (isObject(op.message) ? (Array.isArray(op.message.oneOf) ? op.message.oneOf.filter(isObject) : [op.message]) : []);

/** A server's URL: 3.x `protocol://host/pathname`, 2.x `url`. */
function serverUrl(server: Obj): string {
  if (typeof server.url === 'string') return server.url;
  const protocol = text(server.protocol);
  return `${protocol ? `${protocol}://` : ''}${text(server.host) ?? ''}${text(server.pathname) ?? ''}`;
}

/** The view of the channel `id`, `undefined` when the document has none of that key. */
export function channelViewOf(doc: AsyncApiDocument, id: string): ApiChannelView | undefined {
  const channel = isObject(doc.channels) ? doc.channels[id] : undefined;
  if (!isObject(channel)) return undefined;
  const v3 = String(doc.asyncapi).startsWith('3.');
  const state = pageExpansion(schemaNames(doc));
  const view: ApiChannelView = { id, address: v3 ? text(channel.address) ?? id : id, parameters: [], servers: [], operations: [], messages: [], bindings: [] };
  for (const field of ['title', 'summary', 'description'] as const) if (text(channel[field])) view[field] = text(channel[field]);
  view.parameters = Object.entries(isObject(channel.parameters) ? channel.parameters : {}).filter(([, p]) => isObject(p)).map(([name, p]: [string, Obj]): ApiField =>
    fieldOf(name, isObject(p.schema) ? p.schema : { type: 'string', ...(Array.isArray(p.enum) ? { enum: p.enum } : {}), ...(p.default !== undefined ? { default: p.default } : {}) }, true, state, text(p.description)));
  // Servers: the channel's own list (3.x: the server objects; 2.x: names), else every server of the document.
  const allServers = isObject(doc.servers) ? doc.servers : {};
  const named: Array<[string, unknown]> = Array.isArray(channel.servers) && channel.servers.length
    ? channel.servers.map((s: unknown): [string, unknown] => (typeof s === 'string' ? [s, allServers[s]] : [Object.keys(allServers).find((k) => allServers[k] === s) ?? '', s]))
    : Object.entries(allServers);
  const listed = named.filter((entry): entry is [string, Obj] => isObject(entry[1]));
  view.servers = listed.slice(0, MAX_ITEMS).map(([name, s]) => ({
    name, url: serverUrl(s), ...(text(s.protocol) ? { protocol: text(s.protocol) } : {}), ...(text(s.description) ? { description: text(s.description) } : {}),
  }));
  view.bindings = Object.keys(isObject(channel.bindings) ? channel.bindings : {});
  if (v3) {
    const operations = Object.entries(isObject(doc.operations) ? doc.operations : {}).filter(([, op]) => isObject(op) && op.channel === channel);
    view.operations = operations.slice(0, MAX_ITEMS).map(([name, op]: [string, Obj]) => ({
      name, action: text(op.action) ?? 'send', ...(text(op.summary) ? { summary: text(op.summary) } : {}), ...(text(op.description) ? { description: text(op.description) } : {}),
    }));
    const actionOf = (message: unknown): string | undefined => {
      const op = operations.find(([, o]) => Array.isArray(o.messages) && o.messages.includes(message))?.[1] ?? (operations.length === 1 ? operations[0][1] : undefined);
      return text(op?.action);
    };
    view.messages = Object.entries(isObject(channel.messages) ? channel.messages : {}).filter(([, m]) => isObject(m)).slice(0, MAX_ITEMS)
      .map(([key, m]: [string, Obj]) => messageOf(state, key, m, actionOf(m)));
  } else {
    for (const verb of ['publish', 'subscribe'] as const) {
      const op = channel[verb];
      if (!isObject(op)) continue;
      view.operations.push({ name: text(op.operationId) ?? verb, action: verb, ...(text(op.summary) ? { summary: text(op.summary) } : {}), ...(text(op.description) ? { description: text(op.description) } : {}) });
      v2Messages(op).slice(0, MAX_ITEMS).forEach((m, i) => view.messages.push(messageOf(state, `${verb}-${i + 1}`, m, verb)));
    }
  }
  return view;
}
