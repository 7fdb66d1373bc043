import { chromium, type Browser } from 'playwright-core';

/** Debian's Chromium; a browser downloaded by a test tool would not run on these machines. */
export const CHROMIUM = '/usr/bin/chromium';

/** Launches headless Chromium with the flags that keep it quiet and offline. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}
