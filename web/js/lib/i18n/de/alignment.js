// i18n/de/alignment.js — die Bilder der Zuordnung durch Kreuzaufmerksamkeit (render/alignment.js).
export default {
  'alignment.title': 'Zuordnung (Alignment): welches Quellwort jedes Ausgabetoken ansieht',
  'alignment.how': 'Jeder Kopf der Kreuzaufmerksamkeit (Cross-Attention) jeder Decoder-Schicht. Zeile: die Position, die das Token links davon (→) erzeugt; Spalte: das Quelltoken. Dunkler = mehr Gewicht. Ein Klick auf eine Zelle zeigt ihre Rechnung.',
  'alignment.layer': 'Decoder-Schicht {l}',
  'alignment.head': 'Kopf {h}',
  'alignment.label': 'Kopf {h}: {out} Ausgabetokens mal {src} Quelltokens',
  'alignment.cell': 'Kopf {h}, Decoder-Schicht {l}: beim Erzeugen von „{out}“ gehen {pct} % der Aufmerksamkeit an „{src}“',
};
