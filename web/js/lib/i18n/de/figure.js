// i18n/de/figure.js — ein Schritt als Abbildung (figure.js, component-view.js): Link zur Seite,
// Start der Engine, Bedienelemente und Hinweise des Elements.
export default {
  'figure.openFull': 'im vollständigen Durchgang öffnen ↗',
  'figure.starting': 'Die Engine startet …',
  'figure.computing': 'wird berechnet … {secs} s',
  'figure.sentence': 'Satz',
  'figure.prev': '← Zurück',
  'figure.next': 'Weiter →',
  'figure.counter': 'Schritt {n} von {total}',
  'figure.badAttributes': 'Einige Attribute sind ungültig: {list}.',
  'figure.alwaysFigure': 'ein <encoder-walkthrough>-Element zeigt immer eine Abbildung (view=full ist die ganze Seite)',
  'figure.cannotCompute': 'Berechnung nicht möglich: {why}',
  'figure.nothingYet': 'noch nichts berechnet',
  'figure.overviewLabel': 'Übersicht über alle {rows} × {cols} Werte; die Tabelle darunter führt sie als Text auf.',
  'figure.overviewHint': 'Übersicht — klicken, um zu einer Zelle zu springen',
};
