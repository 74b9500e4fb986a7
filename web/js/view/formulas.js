// formulas.js — the formulas the build typeset (scripts/formulas.mjs → formulas.json: every step
// formula of every preset, as KaTeX's MathML-only markup), so that a figure — view=figure, an
// <encoder-walkthrough> element — shows its formula without KaTeX's script, stylesheet and fonts
// (issue 29, item 2). A formula not in the table is typeset by KaTeX, loaded then
// (view/step-view.js katexInto).
let table = null;
let loading = null;

// Fetches the table once (later calls get the same promise); resolves to it, or to null when it
// cannot come (a file:// page, an old build): every formula then goes to KaTeX.
export function loadFormulaTable(url) {
  if (!loading) {
    loading = fetch(url)
      .then((r) => (r.ok ? r.json() : null))
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
