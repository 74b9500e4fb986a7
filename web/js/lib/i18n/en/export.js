// i18n/en/export.js — the step's Export menu (export-menu.js) and export.js's messages.
export default {
  'export.menu': 'Export',
  'export.svg': 'SVG image',
  'export.png': 'PNG image',
  'export.csv': 'CSV (values)',
  'export.npy': 'NumPy .npy',
  'export.tex': 'LaTeX formula',
  'export.json': 'whole trace (JSON)',
  'export.preparing': 'preparing…',
  'export.saved': 'saved {name} ({bytes} bytes)',
  'export.failed': 'could not export: {why}',
  'export.badFormat': 'unknown export format "{format}" (formats: {list})',
  'export.noStep': 'no step "{id}" in this trace',
};
