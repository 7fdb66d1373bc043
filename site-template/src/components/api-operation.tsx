/** @jsxRuntime automatic @jsxImportSource preact */
/**
 * The body of an API reference page, generated from one OpenAPI operation: method and path,
 * parameters table, request body, responses, code samples and the "Try it" panel
 * (`api-try-it.tsx`).
 */
import type { ComponentChildren } from 'preact';
import { renderToString } from 'preact-render-to-string';
import type { ApiBody, ApiField, ApiOperationView, ApiSample } from '../shared/api-types.ts';
import { LOCATIONS, TryIt } from './api-try-it.tsx';
import { Expandable, ParamField, RequestExample, ResponseExample, ResponseField } from './fields.tsx';

/** Plain-text description as paragraphs (blank lines separate them). */
function Text({ text }: { text?: string }) {
  if (!text) return null;
  return <>{text.split(/\n\s*\n/).map((p) => <p>{p.trim()}</p>)}</>;
}

function Constraints({ field }: { field: ApiField }) {
  return field.enum?.length ? <p class="api-enum">Allowed: {field.enum.map((v, i) => <>{i ? ', ' : ''}<code>{v}</code></>)}</p> : null;
}

/**
 * Where a named schema's properties are: a link to its listing earlier on the page (each named
 * schema is listed once per page, so a document whose schemas refer to one another many times
 * stays a page of bounded size).
 */
function SchemaLink({ target }: { target: { schema?: string; anchor?: string; repeat?: boolean } }) {
  if (!target.repeat || !target.anchor) return null;
  return <p class="api-schema-ref">Properties of <a href={`#${target.anchor}`}><code>{target.schema}</code></a>: listed above.</p>;
}

/** A named schema's first listing on the page, wrapped to carry its anchor; anything else as it is. */
function Listing({ target, children }: { target: { schema?: string; anchor?: string; repeat?: boolean }; children: ComponentChildren }) {
  return target.anchor && !target.repeat ? <div class="api-schema" id={target.anchor} data-schema={target.schema}>{children}</div> : <>{children}</>;
}

/** Body or response properties, nested ones behind a disclosure. */
function Fields({ fields, kind }: { fields: ApiField[]; kind: 'body' | 'response' }) {
  return (
    <>
      {fields.map((f) => {
        const inner = (
          <>
            <Text text={f.description} />
            <Constraints field={f} />
            <SchemaLink target={f} />
            {f.children?.length ? (
              <Expandable title={`${f.name} properties`}>
                <Listing target={f}><Fields fields={f.children} kind={kind} /></Listing>
              </Expandable>
            ) : null}
          </>
        );
        const fallback = f.default === undefined ? undefined : JSON.parse(f.default);
        return kind === 'body'
          ? <ParamField body={f.name} type={f.type} required={f.required} deprecated={f.deprecated} default={fallback}>{inner}</ParamField>
          : <ResponseField name={f.name} type={f.type} required={f.required} deprecated={f.deprecated} default={fallback}>{inner}</ResponseField>;
      })}
    </>
  );
}

function ParamsTable({ view }: { view: ApiOperationView }) {
  const rows = LOCATIONS.flatMap((where) => view.params[where].map((f) => ({ where, f })));
  if (!rows.length) return null;
  return (
    <>
      <h2 id="parameters">Parameters</h2>
      <table class="api-params">
        <thead><tr><th>Name</th><th>In</th><th>Type</th><th>Required</th><th>Description</th></tr></thead>
        <tbody>
          {rows.map(({ where, f }) => (
            <tr id={`param-${where}-${f.name}`}>
              <td><code>{f.name}</code>{f.deprecated ? <span class="field-deprecated"> deprecated</span> : null}</td>
              <td>{where}</td>
              <td><code>{f.type}</code></td>
              <td>{f.required ? 'yes' : 'no'}</td>
              <td>{f.description ?? ''}{f.default !== undefined ? <> Default: <code>{f.default}</code>.</> : null}{f.enum?.length ? <> Allowed: {f.enum.map((v, i) => <>{i ? ', ' : ''}<code>{v}</code></>)}.</> : null}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

function BodySection({ body }: { body: ApiBody }) {
  return (
    <>
      <h2 id="request-body">Request body</h2>
      <p class="api-content-type"><code>{body.contentType}</code> <code>{body.type}</code>{body.required ? <span class="field-required"> required</span> : null}</p>
      <Text text={body.description} />
      <SchemaLink target={body} />
      <Listing target={body}><Fields fields={body.fields} kind="body" /></Listing>
    </>
  );
}

/** One code block in the template's code-block markup (copy button included, no highlighting). */
function Code({ lang, title, code }: { lang: string; title: string; code: string }) {
  return (
    <figure class="code-block" data-lang={lang}>
      <figcaption class="code-title">{title}</figcaption>
      <div class="code-badge">{lang}</div>
      <button class="code-copy" type="button" aria-label="Copy code" hidden>Copy</button>
      <pre class="api-code" tabindex={0}><code>{code}</code></pre>
    </figure>
  );
}

/**
 * The body of one API reference page: the operation (endpoint, parameters, body, responses) in
 * `.api-main`, then `.api-aside` with Try it and the request and response examples. Wide screens
 * show the aside beside the operation, sticky under the header; narrower ones below it.
 */
export function ApiOperation({ view }: { view: ApiOperationView }) {
  const samples: ApiSample[] = view.samples;
  return (
    <div class="api-operation" data-method={view.method}>
      <div class="api-main">
        <p class="api-endpoint"><span class="api-method" data-method={view.method}>{view.method}</span> <code class="api-path">{view.path}</code>
          {view.deprecated ? <span class="field-deprecated"> deprecated</span> : null}</p>
        <Text text={view.description} />
        <ParamsTable view={view} />
        {view.body ? <BodySection body={view.body} /> : null}
        <h2 id="responses">Responses</h2>
        {view.responses.map((r) => (
          <section class="api-response" data-status={r.status}>
            <h3 id={`response-${r.status}`}>{r.status}</h3>
            <Text text={r.description} />
            {r.body ? (
              <>
                <p class="api-content-type"><code>{r.body.contentType}</code> <code>{r.body.type}</code></p>
                <SchemaLink target={r.body} />
                <Listing target={r.body}><Fields fields={r.body.fields} kind="response" /></Listing>
              </>
            ) : null}
          </section>
        ))}
      </div>
      <div class="api-aside">
        <TryIt view={view} />
        <h2 id="examples">Examples</h2>
        <RequestExample>{samples.map((s) => <Code lang={s.lang} title={s.label} code={s.code} />)}</RequestExample>
        {view.responses.some((r) => r.body?.example) ? (
          <ResponseExample>{view.responses.filter((r) => r.body?.example).map((r) => <Code lang="json" title={r.status} code={r.body!.example!} />)}</ResponseExample>
        ) : null}
      </div>
    </div>
  );
}

/** The HTML of an API reference page's body (what the builder stores as the page's `bodyHtml`). */
export function renderApiOperation(view: ApiOperationView): string {
  return renderToString(<ApiOperation view={view} />);
}
