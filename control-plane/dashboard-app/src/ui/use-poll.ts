/**
 * Re-runs `fn` every `ms` while `active`: deployments update live by polling, which works through
 * any proxy (Server-Sent Events need unbuffered connections end to end).
 */
import { useEffect } from 'preact/hooks';

export function usePoll(fn: () => unknown, active: boolean, ms = 2000): void {
  useEffect(() => {
    if (!active) return;
    const t = setInterval(() => {
      // A hidden tab does not need fresh numbers; it catches up when shown.
      if (document.visibilityState === 'visible') void fn();
    }, ms);
    return () => clearInterval(t);
  }, [active, fn, ms]);
}
