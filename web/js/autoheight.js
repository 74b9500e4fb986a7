// autoheight.js — inside an iframe, tells the parent page how tall the content is, whenever
// that changes, so the host can size the frame to it (web/embed.js does; no inner scrollbars).
// The message (documented in README, "Embed it in a blog post"):
//   {type: 'encoder-walkthrough:height', version: 1, height: <CSS px, integer>, step: <id>}
// posted to the parent with targetOrigin '*': it carries only a height and a public step id,
// and the parent checks that it comes from the walkthrough's origin and from its own iframe.
export const HEIGHT_MESSAGE = 'encoder-walkthrough:height';

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
  const ro = new ResizeObserver(() => {
    if (!queued) {
      queued = true;
      requestAnimationFrame(post);
    }
  });
  ro.observe(document.documentElement);
  post();
}
