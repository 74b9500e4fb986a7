// katex-loader.js — KaTeX (vendor/katex/: its script, stylesheet and fonts, ~330 KB) loaded after
// the page's first paint instead of before it (issue 29): until it arrives, a formula shows as its
// LaTeX source (view/step-view.js katexInto), and the step on screen is drawn again once it has.
let loading = null;

// Resolves to window.katex (null if the script cannot load: formulas then stay LaTeX text).
export function loadKatex() {
  if (window.katex) return Promise.resolve(window.katex);
  if (!loading) {
    loading = new Promise((resolve) => {
      const css = document.createElement('link');
      css.rel = 'stylesheet';
      css.href = 'vendor/katex/katex.min.css';
      const js = document.createElement('script');
      js.src = 'vendor/katex/katex.min.js';
      // The stylesheet first: a formula typeset before its CSS applies would flash unstyled.
      let left = 2;
      const done = () => { if (--left === 0) resolve(window.katex || null); };
      css.onload = css.onerror = done;
      js.onload = js.onerror = done;
      document.head.append(css, js);
    });
  }
  return loading;
}
