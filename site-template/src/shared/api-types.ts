/**
 * What an API reference page shows of one OpenAPI operation, prepared by the builder from the
 * dereferenced document and rendered by `<ApiOperation>` (`components/api-operation.tsx`).
 * Plain data only: it is cached as JSON with the page.
 */

/** One parameter, body property or response property. */
export interface ApiField {
  name: string;
  /** Display type: `string`, `integer`, `array<object>`, `string | null`, `string<date-time>`. */
  type: string;
  required?: boolean;
  deprecated?: boolean;
  /** Plain text (OpenAPI descriptions are shown as text, never as HTML). */
  description?: string;
  /** JSON of the default value. */
  default?: string;
  /** Allowed values, as JSON. */
  enum?: string[];
  /** Properties of an object, or of the items of an array of objects. */
  children?: ApiField[];
  /** The named schema (`components.schemas`, Swagger's `definitions`) those properties come from. */
  schema?: string;
  /**
   * Where on the page that schema's properties are listed: the element id of its first listing
   * (which this field is, unless `repeat`). A schema is listed once per page.
   */
  anchor?: string;
  /** The schema was listed earlier on the page (or is this field's own ancestor): no `children`, a link to `#anchor` instead. */
  repeat?: boolean;
}

/** How the visitor's key is sent, from the operation's first security requirement. */
export type ApiAuth =
  | { kind: 'bearer' | 'basic' }
  | { kind: 'header' | 'query' | 'cookie'; name: string };

/** One code sample of the request. */
export interface ApiSample { lang: 'bash' | 'javascript' | 'python'; label: string; code: string }

/** A request or response body. */
export interface ApiBody {
  contentType: string;
  description?: string;
  required?: boolean;
  /** Type of the body itself when it is not an object (`array<object>`, `string<binary>`). */
  type: string;
  fields: ApiField[];
  /** The named schema of the body, its anchor and whether it was listed earlier on the page (see {@link ApiField}). */
  schema?: string;
  anchor?: string;
  repeat?: boolean;
  /** Example document, pretty-printed JSON (or text). */
  example?: string;
}

/** One response of the operation. */
export interface ApiResponse { status: string; description: string; body?: ApiBody }

/** A variable of a server URL (`{region}` in `https://{region}.api.example`). */
export interface ApiServerVariable {
  /** The value used unless the reader picks another. */
  default: string;
  /** The values allowed, when the document lists them (the reader picks one). */
  enum?: string[];
  description?: string;
}

/** One entry of the document's `servers` (or the operation's own), for the Try it server picker. */
export interface ApiServer {
  /** As written: relative or absolute, `{name}` variables kept. */
  url: string;
  description?: string;
  variables?: Record<string, ApiServerVariable>;
}

/** One operation, everything its page shows. */
export interface ApiOperationView {
  /** Upper case: `GET`, `POST`, … */
  method: string;
  /** As written in the document: `/v1/projects/{id}`. */
  path: string;
  /** Base URL from `servers` (or Swagger's host and basePath); may be relative or empty. */
  server: string;
  /**
   * Every server the operation may be sent to, in the document's order (the operation's own
   * `servers`, else its path's, else the document's). With more than one, or with variables,
   * Try it offers a picker; absent, Try it offers `server` alone.
   */
  servers?: ApiServer[];
  operationId?: string;
  summary?: string;
  description?: string;
  deprecated?: boolean;
  tag: string;
  params: { path: ApiField[]; query: ApiField[]; header: ApiField[]; cookie: ApiField[] };
  body?: ApiBody;
  responses: ApiResponse[];
  samples: ApiSample[];
  auth?: ApiAuth;
  /** An OpenAPI 3.1 webhook: `path` is its name, the body is what the API sends; no samples, no Try it. */
  webhook?: boolean;
}

/** One named schema on its own page (Mintlify's `openapi-schema:` frontmatter). */
export interface ApiSchemaView {
  name: string;
  /** Display type of the schema itself (`object`, `array<object>`, `string`). */
  type: string;
  description?: string;
  fields: ApiField[];
  /** The schema's own listing (see {@link ApiField}): its anchor on the page. */
  schema?: string;
  anchor?: string;
  repeat?: boolean;
  /** Example value, pretty-printed JSON. */
  example?: string;
}

/** One message of an AsyncAPI channel: what is sent or received, its payload's fields and example. */
export interface ApiChannelMessage {
  name: string;
  title?: string;
  summary?: string;
  description?: string;
  /** The action of the operation carrying it, as the document writes it: 3.x `send` / `receive`, 2.x `publish` / `subscribe`. */
  action?: string;
  payload?: ApiBody;
}

/** One channel of an AsyncAPI document (Mintlify's `asyncapi:` frontmatter): its address, servers, operations and messages. */
export interface ApiChannelView {
  /** The channel's key in `channels`. */
  id: string;
  /** What clients connect to (`/chat/{roomId}`); 2.x: the key itself. */
  address: string;
  title?: string;
  summary?: string;
  description?: string;
  /** Parameters of the address (`{roomId}`). */
  parameters: ApiField[];
  /** Servers the channel is on: name, URL (protocol, host, path) and description. */
  servers: Array<{ name: string; url: string; protocol?: string; description?: string }>;
  /** Operations on the channel: their action (`send`, `receive`) and summary. */
  operations: Array<{ name: string; action: string; summary?: string; description?: string }>;
  messages: ApiChannelMessage[];
  /** Protocols the channel has bindings for (`ws`, `kafka`…). */
  bindings: string[];
}

/**
 * How a page's own MDX joins the generated view: `content` (its body's HTML) goes after the
 * endpoint and description, before the parameters; `aside` (its `<RequestExample>`,
 * `<ResponseExample>` and `<Panel>` blocks) replaces the generated examples in the side column.
 */
export interface ApiPageParts {
  content?: string;
  aside?: string;
  /** `api.playground.display`: `interactive` (Try it, the default), `simple` (no Try it), `none` (no Try it). */
  playground?: 'interactive' | 'simple' | 'none';
  /** `api.params.expanded: all`: nested properties start open. */
  expanded?: boolean;
}
