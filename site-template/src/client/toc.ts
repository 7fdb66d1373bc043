/**
 * Marks the TOC entry of the section being read (`aria-current="true"`): the last heading whose
 * top has scrolled above the header line. Recomputed on scroll at most once per frame.
 */
export function initToc(): void {
  const links = [...document.querySelectorAll<HTMLAnchorElement>('.toc a[href^="#"]')];
  const headings = links.map((a) => document.getElementById(decodeURIComponent(a.hash.slice(1))));
  if (!links.length) return;
  let queued = false;
  const update = () => {
    queued = false;
    // Just below where a TOC jump lands (scroll-padding-top is the header plus 1rem).
    const line = (document.querySelector('.site-header')?.getBoundingClientRect().bottom ?? 0) + 24;
    let current = -1;
    headings.forEach((h, i) => {
      if (h && h.getBoundingClientRect().top <= line) current = i;
    });
    links.forEach((a, i) => (i === current ? a.setAttribute('aria-current', 'true') : a.removeAttribute('aria-current')));
  };
  addEventListener('scroll', () => {
    if (!queued) {
      queued = true;
      requestAnimationFrame(update);
    }
  }, { passive: true });
  update();
}
