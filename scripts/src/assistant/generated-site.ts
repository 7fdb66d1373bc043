/**
 * A large site for the assistant benchmark, published to a store the way a deployment lays it
 * out: the generated corpus (scripts/src/generate-corpus.ts) with one fact planted per question,
 * its `llms-full.txt` written by the builder's own formatter, and per page a shell holding the
 * page's headings with the ids the builder gives them (what citations resolve anchors against).
 * Page bodies are the corpus MDX as Markdown, not compiled (compiling 5,000 pages takes
 * minutes and does not change what the index reads: words, headings, fences).
 */
import type { ObjectStore } from '@folio/builder';
import { llmsFullTxt } from '@folio/builder/internal/outputs/llms-txt.ts';
import { htmlKey } from '@folio/builder/internal/outputs/site-paths.ts';
import { Slugger } from '@folio/builder/internal/compile/slugger.ts';
import { corpusPages } from '../generate-corpus.ts';
import type { PlantedFact } from './question-sets.ts';

const field = (front: string, name: string) => {
  const raw = new RegExp(`^${name}: (.*)$`, 'm').exec(front)?.[1];
  return raw ? (JSON.parse(raw) as string) : '';
};

/** Publishes the site under `prefix` of `store`; returns the path of the page holding each fact. */
export async function publishGeneratedSite(store: ObjectStore, prefix: string, pages: number, facts: PlantedFact[]): Promise<string[]> {
  const corpus = corpusPages(pages);
  const factPages: string[] = [];
  const exportPages = corpus.map((file, i) => {
    const [, front = '', body = file.source] = /^---\n([\s\S]*?)\n---\n([\s\S]*)$/.exec(file.source) ?? [];
    const urlPath = i === 0 ? '/' : `/${file.path.replace(/^docs\//, '').replace(/\.mdx$/, '')}`;
    const title = field(front, 'title');
    const description = field(front, 'description');
    let markdown = `# ${title}\n\n${description}\n\n${body.trim()}`;
    // Facts go into ordinary pages spread over the corpus (never the index or the changelog).
    const k = facts.findIndex((_, f) => i === 2 + Math.floor(((f + 1) * (pages - 3)) / (facts.length + 1)));
    if (k >= 0) {
      markdown += `\n\n## ${facts[k].heading}\n\n${facts[k].fact}\n`;
      factPages[k] = urlPath;
    }
    return { urlPath, title, description, markdown };
  });
  const site = { name: 'Corpus', siteUrl: 'https://corpus.example', basePath: '' };
  const put = (key: string, text: string) => store.put(prefix + key, Buffer.from(text));
  await put('llms-full.txt', llmsFullTxt(exportPages, site));
  for (let i = 0; i < exportPages.length; i += 64) {
    await Promise.all(exportPages.slice(i, i + 64).map((page) => {
      const slugger = new Slugger();
      const headings = [...page.markdown.matchAll(/^(#{2,3}) (.+)$/gm)].map((m) => `<h${m[1].length} id="${slugger.slug(m[2])}">${m[2]}</h${m[1].length}>`);
      return put(htmlKey(page.urlPath), `<!doctype html><main>${headings.join('')}</main>`);
    }));
  }
  return factPages;
}
