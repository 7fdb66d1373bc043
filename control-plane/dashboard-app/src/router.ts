/**
 * A small history router: the app's URLs are real paths (the control plane answers every client
 * route with index.html), links are plain `<a href>` elements intercepted here, so they still
 * open in a new tab and work without JavaScript tricks.
 */
import { useEffect, useState } from 'preact/hooks';

const listeners = new Set<() => void>();

/** Goes to `to` (a path with optional query), adding a history entry unless `replace`. */
export function navigate(to: string, replace = false): void {
  if (to === location.pathname + location.search) return;
  if (replace) history.replaceState(null, '', to);
  else history.pushState(null, '', to);
  for (const fn of listeners) fn();
  window.scrollTo(0, 0);
}

/** The current path, re-rendering on navigation. */
export function usePath(): string {
  const [path, setPath] = useState(location.pathname);
  useEffect(() => {
    const update = () => setPath(location.pathname);
    listeners.add(update);
    window.addEventListener('popstate', update);
    return () => {
      listeners.delete(update);
      window.removeEventListener('popstate', update);
    };
  }, []);
  return path;
}

/** Intercepts clicks on same-origin links so they navigate without a reload. */
export function interceptLinks(root: HTMLElement): void {
  root.addEventListener('click', (e) => {
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    const a = (e.target as Element).closest('a');
    if (!a || a.target || a.hasAttribute('download') || a.origin !== location.origin) return;
    if (a.pathname.startsWith('/dashboard/api') || a.pathname.startsWith('/v1')) return;
    e.preventDefault();
    navigate(a.pathname + a.search);
  });
}

/** Matches `path` against a pattern such as `/projects/:id` or `/projects/:id/editor/*path`; returns the parameters or null. */
export function match(pattern: string, path: string): Record<string, string> | null {
  const p = pattern.split('/');
  const s = path.replace(/\/+$/, '').split('/');
  // A last part `*name` takes the rest of the path (one or more parts), such as a file path.
  const rest = p.at(-1)?.startsWith('*') ? p.pop()!.slice(1) : undefined;
  if (rest ? s.length <= p.length : p.length !== s.length) return null;
  const params: Record<string, string> = {};
  if (rest) params[rest] = s.slice(p.length).map(decodeURIComponent).join('/');
  for (let i = 0; i < p.length; i++) {
    if (p[i].startsWith(':')) params[p[i].slice(1)] = decodeURIComponent(s[i]);
    else if (p[i] !== s[i]) return null;
  }
  return params;
}

/** A value from the URL fragment (`#token=...`): one-time links keep secrets out of server logs. */
export function fragmentParam(name: string): string {
  return new URLSearchParams(location.hash.slice(1)).get(name) ?? new URLSearchParams(location.search).get(name) ?? '';
}
