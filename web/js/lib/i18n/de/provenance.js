// i18n/de/provenance.js — woher die Gewichte stammen (web/js/provenance.js), in einer Zeile.
export default {
  'provenance.trained': 'Trainiert auf {task} ({steps} Schritte, Seed {seed}).',
  'provenance.trainedPreset': 'Trainierte Gewichte: „{title}“.',
  'provenance.task.number-words': 'Zahlwörter → Ziffern',
  'provenance.task.dates': 'Datumsangaben → jjjj-mm-tt',
  'provenance.task.brackets': 'das Unterscheiden ausgeglichener und unausgeglichener Klammern',
  'provenance.task.masked-words': 'das Ergänzen maskierter Wörter',
  'provenance.userTrained': 'Auf dieser Seite trainierte Gewichte: Aufgabe {task}, {steps} Schritte ({metric} {acc} auf {n} zurückgehaltenen Beispielen, die das Training nie sah).',
  'provenance.accuracy': 'Genauigkeit',
  'provenance.exact': 'exakte Übereinstimmung',
  'provenance.percent': '{value} %',
  'provenance.loaded': 'Gewichte geladen aus {name} ({bytes} Bytes Safetensors).',
  'provenance.given': 'Die eigenen Zahlen des Tutorials („{title}“); Gewichte, die es nicht angibt, sind per Seed erzeugt. Hier wurde nichts trainiert.',
  'provenance.seeded': 'Zufällige Gewichte (Seed {seed}): Die Aufmerksamkeit ist hier Rauschen.',
  'provenance.quoted': '„{w}“',
  'provenance.unknown': ({ V, n, unk, words }) => `${words} ${n > 1 ? 'sind' : 'ist'} nicht im Vokabular dieses Modells mit ${V} Tokens: Es liest ${n > 1 ? 'sie' : 'es'} als ${unk}, einen gemeinsamen Vektor für alle unbekannten Wörter.`,
  'provenance.checkpoint': 'Vortrainierte Gewichte aus dem Checkpoint „{name}“ (model.safetensors).',
};
