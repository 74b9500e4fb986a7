// formulas.js — the formulas the build typeset (scripts/formulas.mjs → dist/formulas-mathml.js: every step
// formula of every preset, as KaTeX's MathML-only markup), so that a figure — view=figure, an
// <encoder-walkthrough> element — shows its formula without KaTeX's script, stylesheet and fonts
// (issue 29, item 2). A formula not in the table is typeset by KaTeX, loaded then
// (view/step-view.js katexInto).
let table = null;
let loading = null;

// Imports the table (an ES module, `url` absolute) once: later calls get the same promise.
// Resolves to it, or to null when it cannot come (an old build, a blocked script): every formula
// then goes to KaTeX.
export function loadFormulaTable(url) {
  if (!loading) {
    loading = import(url)
      .then((m) => m.default)
      .catch(() => null)
      .then((j) => {
        table = j && j.output === 'mathml' && j.formulas ? new Map(Object.entries(j.formulas)) : null;
        return table;
      });
  }
  return loading;
}

// The build's markup of `tex` (KaTeX's, output 'mathml', display mode), or undefined.
export function typesetFormula(tex) {
  return table ? table.get(tex) : undefined;
}
