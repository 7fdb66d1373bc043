import fs from 'node:fs';
import t from 'tap';
import { syntheticPage } from '../../src/compile/synthetic-page.ts';
import { startSandbox } from '../../src/sandbox/sandbox-process.ts';

// What keeps a sandbox small (see ALLOCATOR_ENV and sandboxNodeArgs): checked on the running
// process, after it compiled a page, as the kernel sees it.
t.test('a compile sandbox as it runs', { skip: !fs.existsSync('/proc/self/environ') && 'needs /proc' }, async (t) => {
  const box = startSandbox({ limits: { heapMb: 512 } });
  t.teardown(() => box.close());
  const [result] = await box.compile([{ sourcePath: 'docs/p.mdx', source: syntheticPage(5), contentRoot: 'docs/' }], { readFile: async () => undefined }, { cpuMs: 60_000, wallMs: 120_000 }) as Array<{ bodyHtml?: string }>;
  t.ok(result.bodyHtml, 'the page compiled');
  const environ = fs.readFileSync(`/proc/${box.pid}/environ`, 'latin1').split('\0');
  t.ok(environ.includes('MALLOC_ARENA_MAX=2'), 'glibc keeps two arenas at most');
  t.ok(environ.includes('MIMALLOC_PURGE_DELAY=0'), 'mimalloc returns freed pages at once');
  t.notOk(environ.some((v) => v.startsWith('GLIBC_TUNABLES=')), 'huge pages are a build process\'s alone (its heap is V8\'s, not glibc\'s)');
  const cmdline = fs.readFileSync(`/proc/${box.pid}/cmdline`, 'latin1').split('\0');
  t.ok(cmdline.includes('--max-semi-space-size=8'), 'a smaller young generation');
  t.ok(cmdline.includes('--max-old-space-size=512'), 'the page memory limit is unchanged');
  const [env] = await box.compile([{ sourcePath: 'docs/env.mdx', source: "Environment: {Object.keys(process.env).sort().join(', ')}.", contentRoot: 'docs/' }], { readFile: async () => undefined }, { cpuMs: 60_000, wallMs: 120_000 }) as Array<{ bodyHtml?: string }>;
  t.match(env.bodyHtml, /Environment: [^.]*\./);
  t.notMatch(env.bodyHtml, /MALLOC|MIMALLOC/, 'pages do not see the allocators\' settings');
});
