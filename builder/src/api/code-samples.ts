/**
 * The request of one operation as curl, JavaScript (`fetch`) and Python (`requests`) code: the
 * server URL and path (path parameters left as `{name}` for the reader to fill), required query
 * parameters with example values, the credentials as a `<token>` placeholder, and the example
 * body when the operation takes one.
 */
import type { ApiAuth, ApiSample } from '@folio/site-template/shared/api-types.ts';

/** What the samples are made from. */
export interface SampleInput {
  method: string;
  url: string;
  /** Required query parameters and example values. */
  query: Array<[string, string]>;
  /** Required header parameters and example values. */
  headers: Array<[string, string]>;
  auth?: ApiAuth;
  body?: { contentType: string; value: unknown };
}

const TOKEN = '<token>';

function requestParts(input: SampleInput): { url: string; headers: Array<[string, string]> } {
  const query = [...input.query];
  const headers = [...input.headers];
  const auth = input.auth;
  if (auth?.kind === 'bearer') headers.unshift(['Authorization', `Bearer ${TOKEN}`]);
  else if (auth?.kind === 'basic') headers.unshift(['Authorization', `Basic ${TOKEN}`]);
  else if (auth?.kind === 'header') headers.unshift([auth.name, TOKEN]);
  else if (auth?.kind === 'cookie') headers.unshift(['Cookie', `${auth.name}=${TOKEN}`]);
  else if (auth?.kind === 'query') query.unshift([auth.name, TOKEN]);
  if (input.body) headers.push(['Content-Type', input.body.contentType]);
  const search = query.map(([k, v]) => `${encodeURIComponent(k)}=${v === TOKEN ? v : encodeURIComponent(v)}`).join('&');
  return { url: input.url + (search ? `?${search}` : ''), headers };
}

const isJson = (contentType: string) => /[/+]json\b/.test(contentType);
const bodyText = (body: NonNullable<SampleInput['body']>) => (typeof body.value === 'string' && !isJson(body.contentType) ? body.value : JSON.stringify(body.value, null, 2));
const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

function curl(input: SampleInput): string {
  const { url, headers } = requestParts(input);
  const lines = [`curl --request ${input.method}`, `  --url ${shellQuote(url)}`];
  for (const [k, v] of headers) lines.push(`  --header ${shellQuote(`${k}: ${v}`)}`);
  if (input.body) lines.push(`  --data ${shellQuote(bodyText(input.body))}`);
  return lines.join(' \\\n');
}

const jsKey = (k: string) => (/^[A-Za-z_$][\w$]*$/.test(k) ? k : JSON.stringify(k));

function javascript(input: SampleInput): string {
  const { url, headers } = requestParts(input);
  const opts = [`  method: ${JSON.stringify(input.method)},`];
  if (headers.length) opts.push(`  headers: {\n${headers.map(([k, v]) => `    ${jsKey(k)}: ${JSON.stringify(v)},`).join('\n')}\n  },`);
  if (input.body) {
    opts.push(isJson(input.body.contentType)
      ? `  body: JSON.stringify(${JSON.stringify(input.body.value, null, 2).replace(/\n/g, '\n  ')}),`
      : `  body: ${JSON.stringify(bodyText(input.body))},`);
  }
  return `const response = await fetch(${JSON.stringify(url)}, {\n${opts.join('\n')}\n});\nconst data = await response.json();\nconsole.log(data);`;
}

/** A JSON value written as a Python literal. */
export function pythonLiteral(value: unknown, indent = ''): string {
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'number') return String(value);
  if (typeof value === 'string') return JSON.stringify(value);
  const inner = `${indent}    `;
  if (Array.isArray(value)) return value.length ? `[\n${value.map((v) => `${inner}${pythonLiteral(v, inner)},`).join('\n')}\n${indent}]` : '[]';
  const entries = Object.entries(value as Record<string, unknown>);
  return entries.length ? `{\n${entries.map(([k, v]) => `${inner}${JSON.stringify(k)}: ${pythonLiteral(v, inner)},`).join('\n')}\n${indent}}` : '{}';
}

function python(input: SampleInput): string {
  const { url, headers } = requestParts(input);
  const args = [`    ${JSON.stringify(url)},`];
  const sent = input.body && isJson(input.body.contentType) ? headers.filter(([k]) => k !== 'Content-Type') : headers;
  if (sent.length) args.push(`    headers={\n${sent.map(([k, v]) => `        ${JSON.stringify(k)}: ${JSON.stringify(v)},`).join('\n')}\n    },`);
  if (input.body) args.push(isJson(input.body.contentType) ? `    json=${pythonLiteral(input.body.value, '    ')},` : `    data=${JSON.stringify(bodyText(input.body))},`);
  return `import requests\n\nresponse = requests.request(\n    ${JSON.stringify(input.method)},\n${args.join('\n')}\n)\nprint(response.json())`;
}

/** The three samples of a request, in the order pages show them. */
export function codeSamples(input: SampleInput): ApiSample[] {
  return [
    { lang: 'bash', label: 'cURL', code: curl(input) },
    { lang: 'javascript', label: 'JavaScript', code: javascript(input) },
    { lang: 'python', label: 'Python', code: python(input) },
  ];
}
