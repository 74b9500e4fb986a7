// i18n/de/generate.js — die Antwort des Modells (generate.js): die Runden der gierigen
// Generierung, die Vorhersage eines Klassifikators und die Zeit des Rückwärtsdurchlaufs.
export default {
  'generate.button': 'Erzeugen ▶',
  'generate.buttonTitle': 'Gierige Dekodierung (greedy decoding): den Decoder laufen lassen, das wahrscheinlichste nächste Token anhängen, erneut laufen lassen, bis </s>',
  'generate.needsDecoder': 'Erzeugen braucht ein Encoder-Decoder-Modell (Decoder-Schichten > 0)',
  'generate.output': 'Ausgabe: {tokens}',
  'generate.nothing': '(nichts vor </s>)',
  'generate.round': 'Runde {n}: Der Decoder liest „{input}“; das wahrscheinlichste Token der letzten Zeile ist „{token}“ ({p}). Klicken, um diese Runde durchzugehen.',
  'generate.percent': '{value} %',
  'generate.prediction': 'Vorhersage: ',
  'generate.noBackward': 'Kein Rückwärtsdurchlauf für dieses Modell: {why}.',
  'generate.backwardMs': 'Rückwärtsdurchlauf {ms} ms',
};
