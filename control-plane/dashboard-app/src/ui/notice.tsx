/** Messages: errors (with the upgrade link a 402 carries), successes, and the loading line. */
import type { ComponentChildren } from 'preact';
import type { ApiError } from '../api.ts';

/** An API error as the user should read it; a 402 adds its upgrade link. */
export function ErrorNotice({ error }: { error: ApiError | undefined }) {
  if (!error) return null;
  return (
    <div class="notice error" role="alert">
      <p>{error.message}</p>
      {error.status === 402 && error.upgradeUrl && (
        <p><a href={error.upgradeUrl} target="_blank" rel="noopener noreferrer">Upgrade your plan</a></p>
      )}
    </div>
  );
}

/** A polite status message (read out by screen readers when it appears). */
export function Notice({ children, tone = 'info' }: { children: ComponentChildren; tone?: 'info' | 'success' | 'warning' }) {
  return <div class={`notice ${tone}`} role="status">{children}</div>;
}

/** Shown while a page's first load is under way. */
export function Loading() {
  return <p class="muted" role="status">Loading…</p>;
}
