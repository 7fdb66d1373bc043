/** @jsxRuntime automatic @jsxImportSource preact */
/**
 * The "Try it" panel of an API reference page: a plain form in the HTML, `hidden` until
 * `client/api-playground.ts` wires it (it could not send anything without JavaScript), so the
 * visitor's key only ever lives in its input. Parameters with allowed values are a `<select>`;
 * documents that name several servers, or servers with variables, get a server picker.
 */
import type { ApiField, ApiOperationView, ApiServer } from '../shared/api-types.ts';

type Location = 'path' | 'query' | 'header' | 'cookie';
/** Where parameters go, in the order pages list them. */
export const LOCATIONS: Location[] = ['path', 'query', 'header', 'cookie'];

/** An allowed value (JSON, as the view carries it) as the request sends it: strings bare, anything else as JSON. */
export function enumText(json: string): string {
  try {
    const value: unknown = JSON.parse(json);
    return typeof value === 'string' ? value : JSON.stringify(value);
  } catch {
    return json;
  }
}

/** A server's URL with each `{name}` replaced by its variable's default. */
export function resolveServer(server: ApiServer): string {
  return server.url.replace(/\{([^}]+)\}/g, (whole, name: string) => server.variables?.[name]?.default ?? whole).replace(/\/+$/, '');
}

/**
 * A parameter's control. With allowed values, a `<select>` of them: an optional one starts at
 * "not set" (nothing sent), a required one at its default, else at an empty "choose a value" the
 * form will not send.
 */
function ParamInput({ where, f }: { where: Location; f: ApiField }) {
  const common = { name: `${where}:${f.name}`, 'data-in': where, 'data-name': f.name, required: f.required };
  if (!f.enum?.length) return <input {...common} autocomplete="off" placeholder={f.type} />;
  const fallback = f.default === undefined ? undefined : enumText(f.default);
  return (
    <select {...common}>
      <option value="" selected={!f.required || fallback === undefined}>{f.required ? 'choose a value' : 'not set'}</option>
      {f.enum.map((v) => enumText(v)).map((v) => <option value={v} selected={!!f.required && v === fallback}>{v}</option>)}
    </select>
  );
}

/** A server variable's control: a `<select>` of its allowed values, else a text input; disabled while its server is not the one picked. */
function VariableInput({ name, variable, index }: { name: string; variable: NonNullable<ApiServer['variables']>[string]; index: number }) {
  const common = { 'data-server-var': name, disabled: index > 0, required: true };
  return (
    <label data-server-index={index} hidden={index > 0}>{name} {variable.description ? <small>{variable.description}</small> : null}
      {variable.enum?.length
        ? <select {...common}>{variable.enum.map((v) => <option value={v} selected={v === variable.default}>{v}</option>)}</select>
        : <input {...common} value={variable.default} autocomplete="off" />}
    </label>
  );
}

/** The server picker: which of the document's servers, its variables, and the base URL they make (still editable). */
function ServerPicker({ view }: { view: ApiOperationView }) {
  const servers = view.servers ?? [];
  const base = <label>Base URL <input name="server" type="url" value={servers.length ? resolveServer(servers[0]) : view.server} required /></label>;
  if (servers.length < 2 && !Object.keys(servers[0]?.variables ?? {}).length) return base;
  return (
    <fieldset class="api-try-server" data-servers={JSON.stringify(servers.map((s) => s.url))}>
      <legend>Server</legend>
      <label>Send to <select name="server-choice">{servers.map((s, i) => <option value={String(i)}>{s.description ? `${s.description} (${s.url})` : s.url}</option>)}</select></label>
      {servers.flatMap((s, i) => Object.entries(s.variables ?? {}).map(([name, variable]) => <VariableInput name={name} variable={variable} index={i} />))}
      {base}
    </fieldset>
  );
}

/** The Try it panel of one operation. */
export function TryIt({ view }: { view: ApiOperationView }) {
  const inputs = LOCATIONS.flatMap((where) => view.params[where].map((f) => ({ where, f })));
  return (
    <section class="api-try" data-api-try="" data-method={view.method} data-path={view.path} data-auth={view.auth ? JSON.stringify(view.auth) : undefined} hidden>
      <h2 id="try-it">Try it</h2>
      <form class="api-try-form">
        <ServerPicker view={view} />
        {view.auth ? <label>API key <input name="key" type="password" autocomplete="off" spellcheck={false} placeholder="kept in this page only" /></label> : null}
        {inputs.map(({ where, f }) => (
          <label>{f.name} <small>{where}{f.required ? ', required' : ''}</small>
            <ParamInput where={where} f={f} />
          </label>
        ))}
        {view.body ? <label>Body <small>{view.body.contentType}</small><textarea name="body" data-content-type={view.body.contentType} rows={8} spellcheck={false}>{view.body.example ?? ''}</textarea></label> : null}
        <button type="submit" class="api-try-send">Send {view.method}</button>
      </form>
      <div class="api-try-result" aria-live="polite"><p class="api-try-status" /><pre class="api-try-body" tabindex={0} /></div>
    </section>
  );
}
