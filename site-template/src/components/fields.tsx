/** @jsxRuntime automatic @jsxImportSource preact */
import type { ComponentChildren } from 'preact';
import { paramId } from '../node/anchor-id.ts';
import { textOf } from './text-of.ts';

const LOCATIONS = ['path', 'query', 'body', 'header', 'cookie'] as const;

/** Props shared by `<ParamField>` and `<ResponseField>`. */
interface FieldProps {
  type?: string; required?: boolean; deprecated?: boolean; default?: unknown;
  /** Labels before and after the type (`ResponseField`'s `pre`/`post`). */
  pre?: string[]; post?: string[];
  children?: ComponentChildren;
}

/** Props of `<ParamField>`: the parameter's name in `path`, `query`, `body`, `header` or `cookie`, plus `type`, `required`, `default`, `deprecated`, `placeholder`. */
export interface ParamFieldProps extends FieldProps { path?: string; query?: string; body?: string; header?: string; cookie?: string; placeholder?: string }

/** Props of `<ResponseField>`: `name`, `type`, `required`, `default`, `deprecated`, `pre`, `post`. */
export interface ResponseFieldProps extends FieldProps { name?: string }

function Field({ name, location, type, required, deprecated, default: fallback, pre, post, children }: FieldProps & { name: string; location?: string }) {
  const labels = (list: unknown) => (Array.isArray(list) ? list.map((l) => <span class="field-label">{String(l)}</span>) : null);
  return (
    <div class="field" id={name ? paramId(name) : undefined} data-deprecated={deprecated ? '' : undefined}>
      <div class="field-head">
        {labels(pre)}
        <code class="field-name">{name}</code>
        {location ? <span class="field-location">{location}</span> : null}
        {type ? <span class="field-type">{type}</span> : null}
        {labels(post)}
        {required ? <span class="field-required">required</span> : null}
        {deprecated ? <span class="field-deprecated">deprecated</span> : null}
        {fallback !== undefined ? <span class="field-default">default: <code>{typeof fallback === 'string' ? fallback : JSON.stringify(fallback)}</code></span> : null}
      </div>
      {children ? <div class="field-body">{children}</div> : null}
    </div>
  );
}

/** An API parameter with its location, type and constraints. */
export function ParamField(props: ParamFieldProps) {
  const location = LOCATIONS.find((l) => typeof props[l] === 'string');
  return <Field {...props} name={location ? String(props[location]) : ''} location={location} />;
}

/** A field of an API response. */
export function ResponseField(props: ResponseFieldProps) {
  return <Field {...props} name={props.name ?? ''} />;
}

/** Props of `<Expandable>`: `title` (default "properties") and `defaultOpen`. */
export interface ExpandableProps { title?: ComponentChildren; defaultOpen?: boolean; children?: ComponentChildren }

/** Nested fields behind a disclosure (`<details>`: works without JavaScript). */
export function Expandable({ title = 'properties', defaultOpen = false, children }: ExpandableProps) {
  return (
    <details class="expandable" open={defaultOpen}>
      <summary>{textOf(title) ? <>Show {title}</> : 'Show properties'}</summary>
      <div class="expandable-body">{children}</div>
    </details>
  );
}

/**
 * `<RequestExample>` / `<ResponseExample>`: code blocks shown as one tabbed group (the same
 * client behaviour as `<CodeGroup>`), labelled for what they show.
 */
function Example({ kind, children }: { kind: 'request' | 'response'; children?: ComponentChildren }) {
  return (
    <div class="code-group api-example" data-code-group="" data-example={kind}>
      <p class="api-example-label">{kind === 'request' ? 'Request' : 'Response'}</p>
      {children}
    </div>
  );
}

/** Example requests for an API page. */
export const RequestExample = ({ children }: { children?: ComponentChildren }) => <Example kind="request">{children}</Example>;
/** Example responses for an API page. */
export const ResponseExample = ({ children }: { children?: ComponentChildren }) => <Example kind="response">{children}</Example>;
