import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { buildClientAssets, renderPage, render404 } from '../../src/node/index.ts';
import { samplePageInput, sampleSite } from '../../src/node/sample-site.tsx';
import type { ClientAssets, PageShellInput, SiteConfig } from '../../src/shared/types.ts';

/** An example site written to a temp dir: the client bundle plus the pages a test adds. */
export interface ExampleSite {
  dir: string;
  assets: ClientAssets;
  /**
   * Renders the sample page (the SDK guide, current in the sidebar) with `site` and input
   * overrides, and writes it where `urlPath` is served.
   */
  addPage(urlPath: string, site?: SiteConfig, overrides?: Partial<PageShellInput>): Promise<string>;
  addFile(relPath: string, body: string): Promise<void>;
}

/** Creates a temp site dir with the built client assets and a 404 page. */
export async function createExampleSite(): Promise<ExampleSite> {
  const dir = await mkdtemp(join(tmpdir(), 'folio-site-'));
  const { assets } = await buildClientAssets(dir);
  const addFile = async (relPath: string, body: string) => {
    const file = join(dir, relPath);
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, body);
  };
  const site: ExampleSite = {
    dir,
    assets,
    addFile,
    async addPage(urlPath, s = sampleSite(), overrides = {}) {
      const base = samplePageInput(s, assets);
      const html = renderPage({ ...base, ...overrides, page: { ...base.page, ...overrides.page } });
      await addFile(`${urlPath.replace(/\/$/, '/index')}.html`, html);
      return html;
    },
  };
  await addFile('404.html', render404({ site: sampleSite(), nav: [], assets, searchBase: '/_pagefind/', year: 2025 }));
  return site;
}
