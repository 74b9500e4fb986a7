// autoheight.js — inside an iframe, tells the parent page how tall the content is, whenever
// that changes, so the host can size the frame to it (web/embed.js does; no inner scrollbars).
// The message (documented in README, "Embed it in a blog post"):
//   {type: 'encoder-walkthrough:height', version: 1, height: <CSS px, integer>, step: <id>}
// posted to the parent with targetOrigin '*': it carries only a height and a public step id,
// and the parent checks that it comes from the walkthrough's origin and from its own iframe.
export const HEIGHT_MESSAGE = 'encoder-walkthrough:height';
// The parent may ask for it again: {type: 'encoder-walkthrough:measure'}.
export const MEASURE_MESSAGE = 'encoder-walkthrough:measure';

export function startAutoHeight(stepId = () => '') {
  if (window.parent === window || typeof ResizeObserver === 'undefined') return;
  let last = -1;
  let queued = false;
  const post = () => {
    queued = false;
    // <html>'s own box: the content's height, not the frame's (scrollHeight never shrinks
    // below the viewport). ceil: a fractional height must not cut off the last pixel row.
    const h = Math.ceil(document.documentElement.getBoundingClientRect().height);
    if (h === last) return;
    last = h;
    window.parent.postMessage({ type: HEIGHT_MESSAGE, version: 1, height: h, step: stepId() }, '*');
  };
  // Timers, not requestAnimationFrame, and DOM mutations besides ResizeObserver: Chromium
  // pauses rendering (rAF, ResizeObserver) in cross-origin frames scrolled out of view, and a
  // frame that never reports its real height would stay out of view, too small, for good.
  const schedule = () => {
    if (!queued) {
      queued = true;
      setTimeout(post, 0);
    }
  };
  new ResizeObserver(schedule).observe(document.documentElement);
  new MutationObserver(schedule).observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
  window.addEventListener('resize', schedule);
  // A host script that started after this page (embed.js loading late) asks for the height.
  window.addEventListener('message', (e) => {
    if (e.source === window.parent && e.data && e.data.type === MEASURE_MESSAGE) {
      last = -1;
      schedule();
    }
  });
  if (document.fonts) document.fonts.addEventListener('loadingdone', schedule);
  post();
}
