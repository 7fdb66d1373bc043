/**
 * The site's one client script (a deferred module). Everything here enhances server-rendered
 * HTML that already reads fine without it.
 */
import { initEngagement } from './beacons.ts';
import { initAppearance, initMenu } from './chrome.ts';
import { initCodeBlocks } from './code-blocks.ts';
import { initCopyPage, initFeedback } from './page-actions.ts';
import { initSearch } from './search.ts';
import { initCodeGroups, initTabs } from './tabs.ts';
import { initToc } from './toc.ts';

initAppearance();
initMenu();
initCodeGroups();
initTabs();
initCodeBlocks();
initCopyPage();
initFeedback();
initSearch();
initToc();
initEngagement();

// The assistant UI is served by the site; without a handler the button falls back to search.
for (const button of document.querySelectorAll<HTMLButtonElement>('[data-control=assistant]')) {
  button.addEventListener('click', () => {
    const handled = !document.dispatchEvent(new CustomEvent('folio:assistant', { cancelable: true }));
    if (!handled) document.dispatchEvent(new CustomEvent('folio:search'));
  });
}
