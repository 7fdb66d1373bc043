import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import t from 'tap';
import { detachedStrings } from '../src/detached-strings.ts';
import { summarize } from '../src/state/page-summaries.ts';
import type { CompiledPage } from '../src/types.ts';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** Heap in use after a full collection, in bytes. */
function liveHeap(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

/** A page whose body is `size` characters, with a long heading id and class name in it. */
function bigPage(i: number, size: number): CompiledPage {
  const head = `<h2 id="a-rather-long-heading-id-${i}" class="a-long-utility-class-name-${i}">Heading</h2>`;
  return {
    sourcePath: `docs/p${i}.mdx`, urlPath: `/p${i}`, title: `P${i}`, description: '', frontmatter: {},
    bodyHtml: head + `<p>${String(i).padStart(8, '0')}</p>`.repeat(size / 16), markdown: '', toc: [], updates: [], rss: false, searchText: '',
  };
}

t.test('detached strings', async (t) => {
  t.test('should copy strings without changing them', async (t) => {
    const text = 'x'.repeat(100) + 'a-long-identifier-here' + 'y'.repeat(100);
    t.same(detachedStrings([text.slice(100, 122), 'b', '']), ['a-long-identifier-here', 'b', '']);
  });

  t.test('should keep summaries from holding their pages\' bodies', async (t) => {
    const pages = 100;
    const bodySize = 200_000;
    const before = liveHeap();
    // Each body is made, summarized and dropped, as the build does with compiled pages.
    const summaries = Array.from({ length: pages }, (_, i) => summarize(bigPage(i, bodySize), {}));
    const kept = liveHeap() - before;
    t.same(summaries[7].anchors, ['a-rather-long-heading-id-7']);
    t.same(summaries[7].classes, ['a-long-utility-class-name-7']);
    // Holding the bodies would be 100 x 200 KB = 20 MB; the summaries themselves are a few KB each.
    t.ok(kept < (pages * bodySize) / 4, `summaries of ${pages} pages hold ${Math.round(kept / 1024)} KB`);
  });
});
