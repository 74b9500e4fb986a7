// i18n/de/probs.js — German messages of the predictions read from the output probabilities
// (render/probs.js).
export default {
  'probs.fillsTitle': 'Die Ergänzungen jeder [MASK]-Stelle (die besten 5)',
  'probs.topTitle': 'Die wahrscheinlichsten Vorhersagen an jeder Position',
  'probs.labelsTitle': 'Wahrscheinlichkeiten der Klassen (Labels)',
  'probs.seededNote': 'Die Gewichte sind zufällig (aus einem Seed), nicht trainiert: Die Vorhersagen sind beliebig — aber jede Zahl ist die echte Softmax der echten Logits.',
  'probs.maskNote': 'Die fünf wahrscheinlichsten Tokens des trainierten Modells an jeder [MASK]-Stelle, gelesen aus den Wörtern ringsum (das Raster unten zeigt seine Vermutung an jeder Position).',
  'probs.lmNote': 'Die {k} wahrscheinlichsten nächsten Tokens des Modells nach jedem Präfix der Eingabe (die letzte Zeile: nach der ganzen Eingabe).',
  'probs.trainedNote': 'Die drei wahrscheinlichsten nächsten Tokens des trainierten Modells nach jedem Präfix (die letzte Zeile: nach der ganzen Decoder-Eingabe).',
  'probs.at': 'bei „{tok}“ (Position {pos})',
  'probs.after': 'nach „{prefix}“',
  'probs.sentence': 'Satz {n}',
  'probs.label': 'Klasse',
  'probs.labelN': 'Klasse {j}',
  'probs.notShown': ({ n }) => (n === 1 ? '… 1 Position nicht aufgeführt (das Raster unten hat jede Zeile)' : `… ${n} Positionen nicht aufgeführt (das Raster unten hat jede Zeile)`),
};
