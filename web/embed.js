/* embed.js — for the page that embeds walkthrough iframes (a blog post): sizes every
 * walkthrough iframe to its content. No dependencies, no build step, no globals but one.
 *
 *   <script src="https://example.org/encoder-walkthrough/embed.js" async></script>
 *   <iframe src="https://example.org/encoder-walkthrough/?view=figure&step=layer0.head0.weights"
 *           width="100%" title="Attention weights, computed live"></iframe>
 *
 * Each walkthrough page inside an iframe posts {type: 'encoder-walkthrough:height', version: 1,
 * height, step} to its parent whenever its content height changes. This script accepts such a
 * message only from an iframe on this page (event.source) whose src has the message's origin
 * (event.origin), and only for the walkthrough's own origin — the origin this script was
 * loaded from, unless the iframe has data-walkthrough-origin="https://…" naming another one.
 * It sets the iframe's height and removes its border and scrollbar. On start it asks every such
 * iframe for its height ({type: 'encoder-walkthrough:measure'}), for frames that loaded first.
 * window.encoderWalkthroughEmbed.resized(iframe) → the last height applied (tests, debugging).
 */
(function () {
  'use strict';
  if (window.encoderWalkthroughEmbed) return;
  var TYPE = 'encoder-walkthrough:height';
  var script = document.currentScript;
  var ownOrigin = script && script.src ? new URL(script.src, location.href).origin : null;
  var heights = new WeakMap();

  function frameOf(source) {
    var frames = document.getElementsByTagName('iframe');
    for (var i = 0; i < frames.length; i++) if (frames[i].contentWindow === source) return frames[i];
    return null;
  }
  function expectedOrigin(frame) {
    var named = frame.getAttribute('data-walkthrough-origin');
    return named ? new URL(named, location.href).origin : ownOrigin;
  }

  window.addEventListener('message', function (e) {
    var d = e.data;
    if (!d || d.type !== TYPE || typeof d.height !== 'number') return;
    var frame = frameOf(e.source);
    if (!frame) return;
    var src;
    try { src = new URL(frame.src, location.href).origin; } catch (err) { return; }
    if (e.origin !== src || e.origin !== expectedOrigin(frame)) return;
    var h = Math.max(0, Math.min(20000, Math.round(d.height)));
    heights.set(frame, h);
    frame.style.height = h + 'px';
    frame.style.border = '0';
    frame.style.overflow = 'hidden';
    frame.setAttribute('scrolling', 'no');
  });

  // Frames that reported before this script ran: ask every walkthrough iframe to say its height
  // again. targetOrigin '*': the request carries nothing, and a frame still loading (about:blank)
  // would make a named origin fail with a console error; the answer is checked as above.
  function askAll() {
    var frames = document.getElementsByTagName('iframe');
    for (var i = 0; i < frames.length; i++) {
      var f = frames[i], src;
      try { src = new URL(f.src, location.href).origin; } catch (err) { continue; }
      if (src === expectedOrigin(f) && f.contentWindow) f.contentWindow.postMessage({ type: 'encoder-walkthrough:measure' }, '*');
    }
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', askAll);
  else askAll();

  window.encoderWalkthroughEmbed = Object.freeze({
    resized: function (frame) { return heights.get(frame); },
  });
})();
