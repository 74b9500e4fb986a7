// i18n/de/export.js — das Export-Menü eines Schritts (export-menu.js) und die Meldungen von export.js.
export default {
  'export.menu': 'Exportieren',
  'export.svg': 'SVG-Bild',
  'export.png': 'PNG-Bild',
  'export.csv': 'CSV (Werte)',
  'export.npy': 'NumPy .npy',
  'export.tex': 'LaTeX-Formel',
  'export.json': 'ganzer Trace (JSON)',
  'export.preparing': 'wird vorbereitet …',
  'export.saved': '{name} gespeichert ({bytes} Bytes)',
  'export.failed': 'Export nicht möglich: {why}',
  'export.badFormat': 'unbekanntes Exportformat „{format}“ (Formate: {list})',
  'export.noStep': 'kein Schritt „{id}“ in diesem Trace',
};
