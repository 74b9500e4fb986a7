// i18n/en/figure.js — a step shown as a figure (figure.js, component-view.js): its link to
// the page, the engine's start, the controls and the element's notices.
export default {
  'figure.openFull': 'open in the full walkthrough ↗',
  'figure.starting': 'Starting the engine…',
  'figure.computing': 'computing… {secs} s',
  'figure.sentence': 'Sentence',
  'figure.prev': '← Previous',
  'figure.next': 'Next →',
  'figure.counter': 'Step {n} of {total}',
  'figure.badAttributes': 'Some attributes are invalid: {list}.',
  'figure.alwaysFigure': 'an <encoder-walkthrough> element always shows a figure (view=full is the page)',
  'figure.cannotCompute': 'cannot compute: {why}',
  'figure.nothingYet': 'nothing computed yet',
  'figure.overviewLabel': 'Overview of all {rows} × {cols} values; the table below lists them as text.',
  'figure.overviewHint': 'overview — click to jump to a cell',
};
