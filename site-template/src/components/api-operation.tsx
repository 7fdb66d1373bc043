/** @jsxRuntime automatic @jsxImportSource preact */
/**
 * The body of an API reference page, generated from one OpenAPI operation: method and path,
 * parameters table, request body, responses, code samples and the "Try it" panel
 * (`api-try-it.tsx`).
 */
import type { ComponentChildren } from 'preact';
import { renderToString } from 'preact-render-to-string';
import type { ApiBody, ApiField, ApiOperationView, ApiPageParts, ApiSample, ApiSchemaView } from '../shared/api-types.ts';
import { Text } from './api-text.tsx';
import { LOCATIONS, TryIt } from './api-try-it.tsx';
import { Expandable, ParamField, RequestExample, ResponseExample, ResponseField } from './fields.tsx';

export { Text };

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
function Fields({ fields, kind, open = false }: { fields: ApiField[]; kind: 'body' | 'response'; open?: boolean }) {
  return (
    <>
      {fields.map((f) => {
        const inner = (
          <>
            <Text text={f.description} />
            <Constraints field={f} />
            <SchemaLink target={f} />
            {f.children?.length ? (
              <Expandable title={`${f.name} properties`} defaultOpen={open}>
                <Listing target={f}><Fields fields={f.children} kind={kind} open={open} /></Listing>
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

function BodySection({ body, open }: { body: ApiBody; open?: boolean }) {
  return (
    <>
      <h2 id="request-body">Request body</h2>
      <p class="api-content-type"><code>{body.contentType}</code> <code>{body.type}</code>{body.required ? <span class="field-required"> required</span> : null}</p>
      <Text text={body.description} />
      <Properties body={body} kind="body" open={open} />
    </>
  );
}

/** One code block in the template's code-block markup (copy button included, no highlighting). */
export function Code({ lang, title, code }: { lang: string; title: string; code: string }) {
  return (
    <figure class="code-block" data-lang={lang}>
      <figcaption class="code-title">{title}</figcaption>
      <div class="code-badge">{lang}</div>
      <button class="code-copy" type="button" aria-label="Copy code" hidden>Copy</button>
      <pre class="api-code" tabindex={0}><code>{code}</code></pre>
    </figure>
  );
}

/** HTML made elsewhere (the page's own compiled MDX), placed as it is. */
export function Html({ html, class: className }: { html?: string; class: string }) {
  return html ? <div class={className} dangerouslySetInnerHTML={{ __html: html }} /> : null;
}

/** Properties of a body or response, or of a schema on its own page. */
export function Properties({ body, kind, open }: { body: Pick<ApiBody, 'fields' | 'schema' | 'anchor' | 'repeat'>; kind: 'body' | 'response'; open?: boolean }) {
  return (
    <>
      <SchemaLink target={body} />
      <Listing target={body}><Fields fields={body.fields} kind={kind} open={open} /></Listing>
    </>
  );
}

/**
 * The body of one API reference page: the operation (endpoint, parameters, body, responses) in
 * `.api-main`, then `.api-aside` with Try it and the request and response examples. Wide screens
 * show the aside beside the operation, sticky under the header; narrower ones below it.
 *
 * A page that names the operation in its frontmatter brings `parts`: its own content goes after
 * the endpoint and description, and its `<RequestExample>` / `<ResponseExample>` replace the
 * generated ones (its `<Panel>`s join them in the aside). `playground` other than `interactive`
 * leaves Try it out.
 */
export function ApiOperation({ view, parts = {} }: { view: ApiOperationView; parts?: ApiPageParts }) {
  const samples: ApiSample[] = view.samples;
  const own = (kind: 'request' | 'response') => !!parts.aside?.includes(`data-example="${kind}"`);
  const tryIt = !view.webhook && (parts.playground ?? 'interactive') === 'interactive';
  const responses = view.responses.filter((r) => r.body?.example);
  return (
    <div class="api-operation" data-method={view.method}>
      <div class="api-main">
        <p class="api-endpoint">{view.webhook
          ? <><span class="api-method" data-method="WEBHOOK">WEBHOOK</span> <code class="api-path">{view.path}</code> <span class="api-webhook-method">{view.method}</span></>
          : <><span class="api-method" data-method={view.method}>{view.method}</span> <code class="api-path">{view.path}</code></>}
          {view.deprecated ? <span class="field-deprecated"> deprecated</span> : null}</p>
        <Text text={view.description} />
        <Html class="api-page-content" html={parts.content} />
        <ParamsTable view={view} />
        {view.body ? <BodySection body={view.body} open={parts.expanded} /> : null}
        <h2 id="responses">Responses</h2>
        {view.responses.map((r) => (
          <section class="api-response" data-status={r.status}>
            <h3 id={`response-${r.status}`}>{r.status}</h3>
            <Text text={r.description} />
            {r.body ? (
              <>
                <p class="api-content-type"><code>{r.body.contentType}</code> <code>{r.body.type}</code></p>
                <Properties body={r.body} kind="response" open={parts.expanded} />
              </>
            ) : null}
          </section>
        ))}
      </div>
      <div class="api-aside">
        {tryIt ? <TryIt view={view} /> : null}
        {samples.length || responses.length || parts.aside ? <h2 id="examples">Examples</h2> : null}
        {samples.length && !own('request') ? <RequestExample>{samples.map((s) => <Code lang={s.lang} title={s.label} code={s.code} />)}</RequestExample> : null}
        {responses.length && !own('response') ? (
          <ResponseExample>{responses.map((r) => <Code lang="json" title={r.status} code={r.body!.example!} />)}</ResponseExample>
        ) : null}
        <Html class="api-page-aside" html={parts.aside} />
      </div>
    </div>
  );
}

/** The HTML of an API reference page's body (what the builder stores as the page's `bodyHtml`). */
export function renderApiOperation(view: ApiOperationView, parts?: ApiPageParts): string {
  return renderToString(<ApiOperation view={view} parts={parts} />);
}

/** One named schema's page (`openapi-schema:`): its type, description and properties, the page's own content after them. */
export function ApiSchema({ view, parts = {} }: { view: ApiSchemaView; parts?: ApiPageParts }) {
  return (
    <div class="api-operation api-schema-page" data-schema={view.name}>
      <div class="api-main">
        <p class="api-endpoint"><span class="api-method" data-method="SCHEMA">SCHEMA</span> <code class="api-path">{view.name}</code> <code>{view.type}</code></p>
        <Text text={view.description} />
        <Html class="api-page-content" html={parts.content} />
        {view.fields.length ? <><h2 id="properties">Properties</h2><Properties body={view} kind="response" open={parts.expanded} /></> : null}
      </div>
      <div class="api-aside">
        {view.example ? <><h2 id="examples">Example</h2><ResponseExample><Code lang="json" title={view.name} code={view.example} /></ResponseExample></> : null}
        <Html class="api-page-aside" html={parts.aside} />
      </div>
    </div>
  );
}

/** The HTML of a schema's page body. */
export function renderApiSchema(view: ApiSchemaView, parts?: ApiPageParts): string {
  return renderToString(<ApiSchema view={view} parts={parts} />);
}

/**
 * An MDX page's body whose `<RequestExample>`, `<ResponseExample>` or `<Panel>` blocks go in the
 * side column, as on API pages: `main` the rest of the page, `aside` those blocks.
 */
export function renderWithAside(main: string, aside: string): string {
  return renderToString(
    <div class="api-operation api-mdx-page">
      <Html class="api-main" html={main} />
      <Html class="api-aside" html={aside} />
    </div>,
  );
}
