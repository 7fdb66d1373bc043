/** @jsxRuntime automatic @jsxImportSource preact */
/**
 * The body of an AsyncAPI channel's page (Mintlify's `asyncapi:` frontmatter): the address, the
 * page's own content, the address's parameters, the servers and bindings, the operations and
 * each message with its payload's properties (the API pages' field view); payload examples in
 * the side column, beside the content on wide screens as on API pages.
 */
import { renderToString } from 'preact-render-to-string';
import type { ApiChannelView, ApiPageParts } from '../shared/api-types.ts';
import { Code, Html, Properties, Text } from './api-operation.tsx';
import { ResponseExample } from './fields.tsx';

/** Element id of a message's section. */
const messageId = (name: string) => `message-${name.replace(/[^A-Za-z0-9_-]+/g, '-')}`;

export function ApiChannel({ view, parts = {} }: { view: ApiChannelView; parts?: ApiPageParts }) {
  const examples = view.messages.filter((m) => m.payload?.example);
  return (
    <div class="api-operation api-channel" data-channel={view.id}>
      <div class="api-main">
        <p class="api-endpoint"><span class="api-method" data-method="CHANNEL">{view.bindings.includes('ws') ? 'WSS' : 'CHANNEL'}</span> <code class="api-path">{view.address}</code></p>
        <Text text={view.description ?? view.summary} />
        <Html class="api-page-content" html={parts.content} />
        {view.parameters.length ? (
          <>
            <h2 id="parameters">Parameters</h2>
            <Properties body={{ fields: view.parameters }} kind="body" open={parts.expanded} />
          </>
        ) : null}
        {view.servers.length ? (
          <>
            <h2 id="servers">Servers</h2>
            <ul class="api-servers">{view.servers.map((s) => <li><code>{s.url}</code>{s.name ? <> ({s.name}{s.protocol ? `, ${s.protocol}` : ''})</> : null}{s.description ? <>: {s.description}</> : null}</li>)}</ul>
            {view.bindings.length ? <p class="api-bindings">Bindings: {view.bindings.map((b, i) => <>{i ? ', ' : ''}<code>{b}</code></>)}</p> : null}
          </>
        ) : null}
        {view.operations.length ? (
          <>
            <h2 id="operations">Operations</h2>
            <ul class="api-channel-operations">{view.operations.map((o) => <li><code>{o.action}</code> <strong>{o.name}</strong>{o.summary ? <>: {o.summary}</> : null}</li>)}</ul>
          </>
        ) : null}
        <h2 id="messages">Messages</h2>
        {view.messages.map((m) => (
          <section class="api-message" id={messageId(m.name)} data-action={m.action}>
            <h3>{m.title ?? m.name}{m.action ? <span class="api-webhook-method"> {m.action}</span> : null}</h3>
            <Text text={m.description ?? m.summary} />
            {m.payload ? (
              <>
                <p class="api-content-type"><code>{m.payload.contentType}</code> <code>{m.payload.type}</code></p>
                <Properties body={m.payload} kind="response" open={parts.expanded} />
              </>
            ) : null}
          </section>
        ))}
      </div>
      <div class="api-aside">
        {examples.length ? <><h2 id="examples">Examples</h2><ResponseExample>{examples.map((m) => <Code lang="json" title={m.title ?? m.name} code={m.payload!.example!} />)}</ResponseExample></> : null}
        <Html class="api-page-aside" html={parts.aside} />
      </div>
    </div>
  );
}

/** The HTML of a channel page's body. */
export function renderApiChannel(view: ApiChannelView, parts?: ApiPageParts): string {
  return renderToString(<ApiChannel view={view} parts={parts} />);
}
