// katex-loader.js — the page's formulas. The full page: KaTeX (vendor/katex/: its script,
// stylesheet and fonts, ~330 KB) loaded after the first paint instead of before it (issue 29):
// until it arrives, a formula shows as its LaTeX source (view/step-view.js katexInto), and the
// step on screen is drawn again once it has. A figure (view=figure, what a blog embeds): the
// formulas the build typeset (formulas-mathml.js, view/formulas.js) as MathML, with no KaTeX at all;
// KaTeX's script alone (MathML needs no stylesheet or fonts) only for a formula not there.
import { loadFormulaTable, typesetFormula } from '../view/formulas.js';

let loading = null;

// Resolves to window.katex (null if the script cannot load: formulas then stay LaTeX text).
// css: false — the script only (a figure's MathML).
export function loadKatex({ css = true } = {}) {
  if (window.katex) return Promise.resolve(window.katex);
  if (!loading) {
    loading = new Promise((resolve) => {
      const files = [];
      if (css) {
        const link = document.createElement('link');
        link.rel = 'stylesheet';
        link.href = 'vendor/katex/katex.min.css';
        files.push(link);
      }
      const js = document.createElement('script');
      js.src = 'vendor/katex/katex.min.js';
      files.push(js);
      // The stylesheet first: a formula typeset before its CSS applies would flash unstyled.
      let left = files.length;
      const done = () => { if (--left === 0) resolve(window.katex || null); };
      for (const f of files) f.onload = f.onerror = done;
      document.head.append(...files);
    });
  }
  return loading;
}

// ---- a figure's formulas ----------------------------------------------------------------------
let pending = null;
let katexFailed = false;

// The build's table (formulas-mathml.js), once; not where KaTeX is already there (the single file
// inlines it, and a file:// page could not fetch the table anyway). A figure's formulas come from
// it; the full page shows them from it until KaTeX, loaded after the first paint, draws them again.
export const formulaTable = () => (window.katex ? Promise.resolve(null) : loadFormulaTable(new URL('formulas-mathml.js', document.baseURI).href));

// katexInto's options in a figure: MathML, and for a formula neither the table (perhaps still on
// its way when the first step is drawn) nor KaTeX has, the table awaited, then KaTeX's script if
// still needed, then `redraw()` — once at a time; never again once KaTeX could not load.
export function figureFormulaOptions(redraw) {
  const onMissing = (tex) => {
    if (pending || katexFailed) return;
    pending = formulaTable()
      .then(() => (typesetFormula(tex) !== undefined ? true : loadKatex({ css: false }).then((k) => !(katexFailed = !k))))
      .then((drawn) => {
        pending = null;
        return drawn ? redraw() : undefined;
      });
  };
  return { output: 'mathml', onMissing };
}

// Resolves once the figure's formula is typeset (or cannot be): the table, and a KaTeX load and
// redraw it started.
export async function figureFormulasSettled() {
  await formulaTable();
  while (pending) await pending;
}
