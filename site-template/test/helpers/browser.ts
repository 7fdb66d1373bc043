import { chromium, type Browser } from 'playwright-core';
import { serveStatic, type StaticServer } from './static-server.ts';

/** Debian's Chromium; a browser downloaded by a test tool would not run on these machines. */
export const CHROMIUM = '/usr/bin/chromium';

/** Launches headless Chromium with the flags that keep it quiet and offline. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

/** Serves the site in `root` over HTTP and launches Chromium, both closed when the test `t` ends. */
export async function browseStatic(t: { teardown(fn: () => unknown): void }, root: string): Promise<{ server: StaticServer; browser: Browser }> {
  const server = await serveStatic(root);
  t.teardown(() => server.close());
  const browser = await launchBrowser();
  t.teardown(() => browser.close());
  return { server, browser };
}
