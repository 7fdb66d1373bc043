/**
 * The only inline script: runs in <head> before the first paint so dark mode never flashes.
 * It marks `data-js` (CSS shows JS-only controls from then on) and sets `data-mode` from the
 * reader's stored choice (ignored when `strict`), else the site default, else the system preference.
 * Kept tiny and dependency-free because it blocks rendering.
 */
export const MODE_STORAGE_KEY = 'folio-mode';

/** Source of the head script (plain ES2017, no imports). */
export const INLINE_HEAD_SCRIPT =
  `(function(){var d=document.documentElement;d.setAttribute('data-js','');try{var m=d.getAttribute('data-appearance');` +
  `if(!d.hasAttribute('data-strict')){var s=localStorage.getItem('${MODE_STORAGE_KEY}');if(s==='light'||s==='dark')m=s}` +
  `if(m!=='light'&&m!=='dark')m=matchMedia('(prefers-color-scheme: dark)').matches?'dark':'light';d.setAttribute('data-mode',m)}catch(e){}})()`;
