/**
 * The site's one client script (a deferred module). Everything here enhances server-rendered
 * HTML that already reads fine without it.
 */
import { initApiPlayground } from './api-playground.ts';
import { initEngagement } from './beacons.ts';
import { initAppearance, initMenu, initTabRow } from './chrome.ts';
import { initCodeBlocks } from './code-blocks.ts';
import { initMermaid } from './mermaid.ts';
import { initCopyPage, initFeedback } from './page-actions.ts';
import { initSearch } from './search.ts';
import { initCodeGroups, initTabs } from './tabs.ts';
import { initToc } from './toc.ts';
import { initUpdateFilter } from './update-filter.ts';
import { initViews } from './views.ts';

initAppearance();
initMenu();
initTabRow();
initCodeGroups();
initTabs();
initCodeBlocks();
initViews();
initUpdateFilter();
initCopyPage();
initFeedback();
initSearch();
initToc();
void initMermaid();
initApiPlayground();
initEngagement();

// Content replaced in place (the local preview swaps an edited page's body without reloading):
// enhance the new tabs, code groups and code blocks. Each of these skips what is already done.
document.addEventListener('folio:content', () => {
  initCodeGroups();
  initTabs();
  initCodeBlocks();
  initViews();
  initUpdateFilter();
});

// The assistant panel is its own module, fetched the first time a visitor opens it. A page
// script may take over by cancelling the `folio:assistant` event.
const openAssistant = () => {
  if (!document.dispatchEvent(new CustomEvent('folio:assistant', { cancelable: true }))) return;
  void import('./assistant.ts').then((m) => m.openAssistant());
};
const assistantButtons = document.querySelectorAll<HTMLButtonElement>('[data-control=assistant]');
for (const button of assistantButtons) button.addEventListener('click', openAssistant);
// Ctrl/Cmd+I opens it wherever the site shows the assistant control (ai.assistant.trigger "button").
if (assistantButtons.length) {
  document.addEventListener('keydown', (e) => {
    if ((e.key === 'i' || e.key === 'I') && (e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey) {
      e.preventDefault();
      openAssistant();
    }
  });
}
