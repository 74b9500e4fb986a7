// i18n/de/attention.js — German messages of the attention view (render/attention.js): the
// line view of who attends to whom and the thumbnails of every head.
export default {
  'attention.whoTitle': 'Wer achtet auf wen',
  'attention.whoHelp': 'Jede Linie verbindet ein Abfrage-Token (Query, links) mit einem Schlüssel-Token (Key, rechts); je größer das Gewicht, desto dunkler die Linie. Zeigen Sie auf ein Token links oder fokussieren Sie es, um nur seine Linien mit ihren Gewichten zu sehen.',
  'attention.headsShown': 'in der Linienansicht gezeigte Köpfe (Heads)',
  'attention.head': 'Kopf {h}',
  'attention.layer': 'Schicht {n}',
  'attention.decoderLayer': 'Decoder {n}',
  'attention.linesLabel': 'Aufmerksamkeitslinien von {q} Abfrage-Tokens zu {k} Schlüssel-Tokens',
  'attention.queryLabel': '„{tok}“ (Abfrage {i}): ihre Aufmerksamkeit zeigen',
  'attention.manyTokens': 'viele Tokens: zeigen Sie auf ein Abfrage-Token, um seine Linien zu zeichnen',
  'attention.allLayers': 'Alle {layers} Schichten × {heads} Köpfe',
  'attention.allHeads': 'Alle {heads} Köpfe dieses Aufmerksamkeitsblocks',
  'attention.thumbHelp': 'Jedes Vorschaubild zeigt die Aufmerksamkeitsgewichte A eines Kopfes (Zeilen: Abfragen, Spalten: Schlüssel), gefärbt von 0 bis zum größten Gewicht dieses Kopfes. Ein Klick führt zu ihm.',
  'attention.thumbLabel': '{cap}: {title}',
  'attention.thumbLabelCurrent': '{cap}: {title} (dieser Schritt)',
  'attention.thumbTitle': 'Kopf {h}: Farben von 0 bis {max}',
};
