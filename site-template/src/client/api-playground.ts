/**
 * The "Try it" panel of API reference pages: sends the operation's request from the browser
 * with what the visitor typed and shows the answer. The key is read from its input when the
 * request is sent and never written anywhere (no storage, no cookie, no URL): it lasts as long
 * as the page. Requests go without the site's cookies (`credentials: 'omit'`); the API must
 * allow the site's origin (CORS).
 */

type Auth = { kind: 'bearer' | 'basic' } | { kind: 'header' | 'query' | 'cookie'; name: string };

function request(root: HTMLElement, form: HTMLFormElement): { url: string; init: RequestInit } {
  const method = root.dataset.method ?? 'GET';
  const data = new FormData(form);
  let path = root.dataset.path ?? '/';
  const query = new URLSearchParams();
  const headers = new Headers();
  for (const input of form.querySelectorAll<HTMLInputElement | HTMLSelectElement>('input[data-in], select[data-in]')) {
    const value = input.value;
    if (value === '') continue;
    const name = input.dataset.name ?? '';
    if (input.dataset.in === 'path') path = path.replaceAll(`{${name}}`, encodeURIComponent(value));
    else if (input.dataset.in === 'query') query.append(name, value);
    else if (input.dataset.in === 'header') headers.set(name, value);
  }
  const key = String(data.get('key') ?? '');
  const auth: Auth | undefined = root.dataset.auth ? JSON.parse(root.dataset.auth) : undefined;
  if (key && auth) {
    if (auth.kind === 'bearer') headers.set('Authorization', `Bearer ${key}`);
    else if (auth.kind === 'basic') headers.set('Authorization', `Basic ${key.includes(':') ? btoa(key) : key}`);
    else if (auth.kind === 'header') headers.set(auth.name, key);
    else if (auth.kind === 'query') query.append(auth.name, key);
  }
  const init: RequestInit = { method, headers, credentials: 'omit' };
  const body = form.querySelector<HTMLTextAreaElement>('textarea[name=body]');
  if (body && body.value.trim() !== '' && method !== 'GET' && method !== 'HEAD') {
    headers.set('Content-Type', body.dataset.contentType ?? 'application/json');
    init.body = body.value;
  }
  const server = String(data.get('server') ?? '').replace(/\/+$/, '');
  const search = query.toString();
  return { url: `${server}${path}${search ? `?${search}` : ''}`, init };
}

/**
 * Wires the server picker, where the page has one: picking a server shows its variables (and
 * only its own are sent to validation), and the base URL follows the server and its variables.
 * The base URL stays editable; the next pick overwrites it.
 */
function wireServerPicker(form: HTMLFormElement): void {
  const picker = form.querySelector<HTMLElement>('[data-servers]');
  const choice = picker?.querySelector<HTMLSelectElement>('select[name=server-choice]');
  const base = form.querySelector<HTMLInputElement>('input[name=server]');
  if (!picker || !choice || !base) return;
  const urls = JSON.parse(picker.dataset.servers ?? '[]') as string[];
  const update = () => {
    const index = choice.value;
    const values = new Map<string, string>();
    for (const label of picker.querySelectorAll<HTMLElement>('[data-server-index]')) {
      const mine = label.dataset.serverIndex === index;
      label.hidden = !mine;
      const input = label.querySelector<HTMLInputElement | HTMLSelectElement>('[data-server-var]');
      if (!input) continue;
      input.disabled = !mine;
      if (mine) values.set(input.dataset.serverVar ?? '', input.value);
    }
    const url = urls[Number(index)] ?? '';
    base.value = url.replace(/\{([^}]+)\}/g, (whole, name: string) => values.get(name) || whole).replace(/\/+$/, '');
  };
  picker.addEventListener('change', (e) => {
    if (e.target !== base) update();
  });
  picker.addEventListener('input', (e) => {
    if ((e.target as HTMLElement).matches('input[data-server-var]')) update();
  });
}

/** Shows the panels (hidden without JavaScript, where they could not work) and wires their forms. */
export function initApiPlayground(): void {
  for (const root of document.querySelectorAll<HTMLElement>('[data-api-try]:not([data-ready])')) {
    const form = root.querySelector<HTMLFormElement>('form');
    const status = root.querySelector<HTMLElement>('.api-try-status');
    const out = root.querySelector<HTMLElement>('.api-try-body');
    if (!form || !status || !out) continue;
    root.setAttribute('data-ready', '');
    root.hidden = false;
    wireServerPicker(form);
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      let sent: { url: string; init: RequestInit };
      try {
        sent = request(root, form);
      } catch (err) {
        status.textContent = `Could not send: ${(err as Error).message}`;
        return;
      }
      status.textContent = 'Sending…';
      out.textContent = '';
      fetch(sent.url, sent.init).then(async (res) => {
        const text = await res.text();
        status.textContent = `${res.status} ${res.statusText}`.trim();
        status.dataset.status = String(res.status);
        try {
          out.textContent = JSON.stringify(JSON.parse(text), null, 2);
        } catch {
          out.textContent = text;
        }
      }, (err: unknown) => {
        status.textContent = `Network error: ${(err as Error).message} (the API may not allow requests from this site)`;
        delete status.dataset.status;
      });
    });
  }
}
