/** A slug input checked live against `GET /slug-available` (debounced, latest answer wins). */
import { useEffect, useState } from 'preact/hooks';
import { api } from '../api.ts';
import { Field } from './form.tsx';

/** `GET /slug-available`: `reason` is `invalid` or `taken`, `message` says it in words. */
export interface SlugCheck { available: boolean; reason?: string; message?: string }

/** The slug rule of the spec, checked before asking the server. */
export const SLUG_RE = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** Makes a slug from a project name: `My Docs!` → `my-docs`. */
export function slugify(name: string): string {
  return name.toLowerCase().normalize('NFKD').replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 63);
}

export function SlugField({ value, onInput, current, onCheck, label = 'Slug' }: { value: string; onInput(v: string): void; current?: string; onCheck(c: SlugCheck | undefined): void; label?: string }) {
  const [check, setCheck] = useState<SlugCheck | 'checking'>();
  useEffect(() => {
    onCheck(undefined);
    if (!value || value === current) { setCheck(undefined); return; }
    if (!SLUG_RE.test(value)) {
      const c = { available: false, reason: 'invalid', message: 'Use lowercase letters, digits and single hyphens, not at the start or end.' };
      setCheck(c);
      onCheck(c);
      return;
    }
    setCheck('checking');
    let stale = false;
    const t = setTimeout(async () => {
      try {
        const c = await api<SlugCheck>('GET', `/slug-available?slug=${encodeURIComponent(value)}`);
        if (stale) return;
        setCheck(c);
        onCheck(c);
      } catch (err) {
        if (!stale) setCheck({ available: false, message: (err as Error).message });
      }
    }, 250);
    return () => { stale = true; clearTimeout(t); };
  }, [value, current]);
  const hint = check === 'checking' ? 'Checking…'
    : check?.available ? `“${value}” is available.`
    : 'Lowercase letters, digits and hyphens; it becomes the site’s subdomain.';
  const error = check && check !== 'checking' && !check.available ? (check.message ?? `“${value}” is taken.`) : undefined;
  return (
    <div aria-live="polite">
      <Field label={label} required value={value} autoCapitalize="none" spellcheck={false} hint={hint} error={error} onInput={(e) => onInput(e.currentTarget.value.trim())} />
    </div>
  );
}
