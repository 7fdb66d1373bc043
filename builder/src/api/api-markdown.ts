/**
 * The Markdown export of an API reference page (its `.md` file, `llms-full.txt` and the pages
 * API): the same content as the HTML page, minus the "Try it" panel.
 */
import type { ApiChannelView, ApiField, ApiOperationView, ApiSchemaView } from '@folio/site-template/shared/api-types.ts';

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');

function fieldLines(fields: ApiField[], indent = ''): string[] {
  return fields.flatMap((f) => {
    const notes = [f.type, f.required ? 'required' : undefined, f.deprecated ? 'deprecated' : undefined, f.default !== undefined ? `default ${f.default}` : undefined].filter(Boolean).join(', ');
    const line = `${indent}- \`${f.name}\` (${notes})${f.description ? `: ${f.description.replace(/\s*\n\s*/g, ' ')}` : ''}${f.enum?.length ? ` Allowed: ${f.enum.join(', ')}.` : ''}${seeAbove(f)}`;
    return [line, ...fieldLines(f.children ?? [], `${indent}  `)];
  });
}

/** A named schema listed earlier on the page: where (each is listed once, as on the HTML page). */
const seeAbove = (t: { schema?: string; anchor?: string; repeat?: boolean }) => (t.repeat && t.schema ? ` Properties of \`${t.schema}\`: listed above.` : '');

/** Markdown of the longest run of backticks in `code` plus one, so a fence cannot end early. */
const fence = (code: string) => '`'.repeat(Math.max(3, ...[...code.matchAll(/`+/g)].map((m) => m[0].length + 1)));

/** The page's Markdown, starting with its title. */
export function apiMarkdown(title: string, view: ApiOperationView): string {
  const out = [`# ${title}`, '', view.webhook ? `Webhook \`${view.path}\` (\`${view.method}\`)` : `\`${view.method} ${view.path}\``, ''];
  if (view.deprecated) out.push('Deprecated.', '');
  if (view.description) out.push(view.description, '');
  const rows = (['path', 'query', 'header', 'cookie'] as const).flatMap((where) => view.params[where].map((f) => ({ where, f })));
  if (rows.length) {
    out.push('## Parameters', '', '| Name | In | Type | Required | Description |', '| --- | --- | --- | --- | --- |');
    for (const { where, f } of rows) out.push(`| \`${f.name}\` | ${where} | \`${cell(f.type)}\` | ${f.required ? 'yes' : 'no'} | ${cell(f.description ?? '')} |`);
    out.push('');
  }
  if (view.body) {
    out.push('## Request body', '', `\`${view.body.contentType}\` \`${view.body.type}\`${view.body.required ? ', required' : ''}`, '');
    if (view.body.description) out.push(view.body.description, '');
    if (view.body.repeat) out.push(seeAbove(view.body).trim(), '');
    if (view.body.fields.length) out.push(...fieldLines(view.body.fields), '');
  }
  out.push('## Responses', '');
  for (const r of view.responses) {
    out.push(`### ${r.status}`, '');
    if (r.description) out.push(r.description, '');
    if (r.body?.repeat) out.push(seeAbove(r.body).trim(), '');
    if (r.body?.fields.length) out.push(...fieldLines(r.body.fields), '');
  }
  out.push('## Examples', '');
  for (const s of view.samples) {
    const f = fence(s.code);
    out.push(`${f}${s.lang} ${s.label}`, s.code, f, '');
  }
  for (const r of view.responses) {
    if (!r.body?.example) continue;
    const f = fence(r.body.example);
    out.push(`${f}json ${r.status}`, r.body.example, f, '');
  }
  return out.join('\n');
}

/** The Markdown of a named schema's page (`openapi-schema:`), starting with its title. */
export function schemaMarkdown(title: string, view: ApiSchemaView): string {
  const out = [`# ${title}`, '', `Schema \`${view.name}\` (\`${view.type}\`)`, ''];
  if (view.description) out.push(view.description, '');
  if (view.fields.length) out.push('## Properties', '', ...fieldLines(view.fields), '');
  if (view.example) {
    const f = fence(view.example);
    out.push('## Example', '', `${f}json`, view.example, f, '');
  }
  return out.join('\n');
}

/** The Markdown of an AsyncAPI channel's page (`asyncapi:`), starting with its title. */
export function channelMarkdown(title: string, view: ApiChannelView): string {
  const out = [`# ${title}`, '', `Channel \`${view.address}\``, ''];
  const about = view.description ?? view.summary;
  if (about) out.push(about, '');
  if (view.parameters.length) out.push('## Parameters', '', ...fieldLines(view.parameters), '');
  if (view.servers.length) {
    out.push('## Servers', '', ...view.servers.map((s) => `- \`${s.url}\`${s.name ? ` (${s.name}${s.protocol ? `, ${s.protocol}` : ''})` : ''}${s.description ? `: ${s.description}` : ''}`), '');
    if (view.bindings.length) out.push(`Bindings: ${view.bindings.map((b) => `\`${b}\``).join(', ')}.`, '');
  }
  if (view.operations.length) out.push('## Operations', '', ...view.operations.map((o) => `- \`${o.action}\` ${o.name}${o.summary ? `: ${o.summary}` : ''}`), '');
  out.push('## Messages', '');
  for (const m of view.messages) {
    out.push(`### ${m.title ?? m.name}${m.action ? ` (${m.action})` : ''}`, '');
    if (m.description ?? m.summary) out.push((m.description ?? m.summary)!, '');
    if (m.payload) {
      out.push(`\`${m.payload.contentType}\` \`${m.payload.type}\``, '');
      if (m.payload.repeat) out.push(seeAbove(m.payload).trim(), '');
      if (m.payload.fields.length) out.push(...fieldLines(m.payload.fields), '');
      if (m.payload.example) {
        const f = fence(m.payload.example);
        out.push(`${f}json`, m.payload.example, f, '');
      }
    }
  }
  return out.join('\n');
}
