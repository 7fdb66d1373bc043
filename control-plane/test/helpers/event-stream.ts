import type { DashboardAuth } from './dashboard.ts';

/** An open Server-Sent Events stream: every `event: deployment` so far, and a wait for one that matches. */
export async function openStream(url: string, auth: DashboardAuth) {
  const res = await fetch(url, { headers: { cookie: auth.cookie } });
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  const events: any[] = [];
  let text = '';
  let raw = '';
  return {
    res, events,
    get raw() { return raw; },
    /** Reads until an event matching `predicate` arrived (no timing: the test's own timeout bounds it). */
    async until(predicate: (e: any) => boolean): Promise<any> {
      for (;;) {
        const hit = events.find(predicate);
        if (hit) return hit;
        const chunk = await reader.read();
        if (chunk.done) throw new Error(`stream ended; got ${JSON.stringify(events)}`);
        const piece = decoder.decode(chunk.value, { stream: true });
        raw += piece;
        text += piece;
        const blocks = text.split('\n\n');
        text = blocks.pop()!;
        for (const b of blocks) if (b.startsWith('event: deployment\n')) events.push(JSON.parse(b.split('\ndata: ')[1]));
      }
    },
    close: () => reader.cancel(),
  };
}
