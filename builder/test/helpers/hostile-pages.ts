/**
 * A hostile tenant's pages: each tries one way out of the build and renders what it got. Used by
 * the platform's end-to-end test (a worker builds them) and the CI deploy test. Every attempt must
 * fail the page or render something harmless; `leaks()` lists host data found in any text.
 */
export interface HostileTargets {
  /** The platform's data folder (embedded database journal, other sites). */
  dataDir: string;
  /** Another organization's project id: its site lives under `<dataDir>/sites/<id>/`. */
  victimProjectId: string;
  /** The control plane's internal origin, e.g. http://127.0.0.1:4000. */
  internalUrl: string;
}

const fs = "process.getBuiltinModule('fs')";

/** The pages (repository path → MDX) of the hostile repository, with a valid docs.json. */
export function hostileRepo(t: HostileTargets): Record<string, string> {
  const page = (title: string, body: string) => `---\ntitle: ${title}\n---\n\n${body}\n`;
  const victimSite = `${t.dataDir}/sites/${t.victimProjectId}`;
  return {
    'docs.json': JSON.stringify({ name: 'Hostile' }),
    'docs/index.mdx': page('Home', "An ordinary page, whose environment holds {Object.keys(process.env).sort().join(', ')}."),
    'docs/environ.mdx': page('Environ', `{${fs}.readFileSync('/proc/self/environ', 'latin1')}`),
    'docs/parent-environ.mdx': page('Parent', `{${fs}.readFileSync('/proc/' + process.ppid + '/environ', 'latin1')}`),
    'docs/binding.mdx': page('Binding', "{String(Object.keys(process.binding('fs')))}"),
    'docs/journal.mdx': page('Journal', `{${fs}.readdirSync(${JSON.stringify(`${t.dataDir}/db`)}).join(',')}`),
    'docs/spawn.mdx': page('Spawn', "{String(process.getBuiltinModule('child_process').execSync('id'))}"),
    'docs/thread.mdx': page('Thread', "{String(new (process.getBuiltinModule('worker_threads').Worker)('1', { eval: true }))}"),
    'docs/socket.mdx': page('Socket', `export const res = await new Promise((resolve, reject) => { const s = process.getBuiltinModule('net').connect(${Number(new URL(t.internalUrl).port)}, '127.0.0.1'); s.on('connect', () => resolve('connected')); s.on('error', reject) })\n\n{res}`),
    'docs/claim.mdx': page('Claim', `export const res = await fetch(${JSON.stringify(`${t.internalUrl}/internal/v1/jobs/claim`)}, { method: 'POST', body: '{}' }).then((r) => r.text())\n\n{res}`),
    'docs/deface.mdx': page('Deface', `{${fs}.writeFileSync(${JSON.stringify(`${victimSite}/pwned.txt`)}, 'pwned')}`),
    'docs/runner-import.mdx': page('Runner', "export const m = await __vite_ssr_dynamic_import__('node:fs')\n\n{m.readFileSync('/proc/self/environ', 'latin1')}"),
    'docs/throw.mdx': page('Throw', `{(() => { throw new Error(${fs}.readFileSync('/proc/self/environ', 'latin1')) })()}`),
    'docs/kill.mdx': page('Kill', "{String(process.kill(process.ppid, 'SIGKILL'))}"),
    'docs/loop.mdx': page('Loop', '{(() => { while (true) {} })()}'),
    'docs/alloc.mdx': page('Alloc', '{String(new Uint8Array(2 * 1024 ** 3).fill(1).length)}'),
  };
}

/** Pages that must build (harmlessly); every other hostile page must fail. */
export const HARMLESS_PAGES = ['docs/index.mdx'];

/** Host data found in `text`: the needles that occur in it. */
export function leaks(text: string, needles: string[]): string[] {
  return needles.filter((n) => n && text.includes(n));
}
