/** Form pieces: a labelled field (hint and error tied to the input for screen readers) and a submit hook. */
import type { ComponentChildren, InputHTMLAttributes, LooseInputHTMLAttributes } from 'preact';
import { useState } from 'preact/hooks';
import { ApiError } from '../api.ts';

let nextId = 0;

type FieldProps = LooseInputHTMLAttributes<HTMLInputElement> & { label: string; hint?: ComponentChildren; error?: string; id?: string };

/** An input with its label, optional hint and error message. */
export function Field({ label, hint, error, id, ...input }: FieldProps) {
  const [fieldId] = useState(() => id ?? `f${++nextId}`);
  const describedBy = [hint ? `${fieldId}-hint` : '', error ? `${fieldId}-error` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div class="field">
      <label for={fieldId}>{label}</label>
      <input id={fieldId} aria-describedby={describedBy} aria-invalid={error ? true : undefined} {...(input as InputHTMLAttributes)} />
      {hint && <p class="hint" id={`${fieldId}-hint`}>{hint}</p>}
      {error && <p class="field-error" id={`${fieldId}-error`}>{error}</p>}
    </div>
  );
}

/** Runs an async form action, keeping its pending state and error. */
export function useSubmit<A extends unknown[]>(fn: (...args: A) => Promise<unknown>) {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<ApiError>();
  const run = async (...args: A) => {
    setPending(true);
    setError(undefined);
    try {
      await fn(...args);
      return true;
    } catch (err) {
      setError(err instanceof ApiError ? err : new ApiError(0, 'client_error', String(err)));
      return false;
    } finally {
      setPending(false);
    }
  };
  return { pending, error, setError, run };
}

/** `onSubmit` handler that stops the page reload and calls `fn`. */
export function submitWith(fn: () => unknown) {
  return (e: Event) => {
    e.preventDefault();
    void fn();
  };
}
