// i18n/de/generate.js — die Antwort des Modells (generate.js): die Runden der gierigen
// Generierung, die Vorhersage eines Klassifikators und die Zeit des Rückwärtsdurchlaufs.
export default {
  'generate.button': 'Erzeugen ▶',
  'generate.buttonTitle': 'Gierige Dekodierung (greedy decoding): den Decoder laufen lassen, das wahrscheinlichste nächste Token anhängen, erneut laufen lassen, bis </s>',
  'generate.buttonTitle.decoderOnly': 'Gierige Generierung (greedy decoding): das Modell auf dem Text laufen lassen, das wahrscheinlichste nächste Token anhängen, erneut laufen lassen, bis <|endoftext|> oder zur Längengrenze',
  'generate.needsDecoder': 'Erzeugen braucht ein Encoder-Decoder-Modell (Decoder-Schichten > 0) oder einen reinen Decoder-Checkpoint (GPT-2)',
  'generate.badMax': 'maxTokens muss eine ganze Zahl von 1 bis 100000 sein, nicht {value}',
  'generate.output': 'Ausgabe: {tokens}',
  'generate.nothing': '(nichts vor </s>)',
  'generate.nothing.decoderOnly': '(nichts vor <|endoftext|>)',
  'generate.round': 'Runde {n}: Der Decoder liest „{input}“; das wahrscheinlichste Token der letzten Zeile ist „{token}“ ({p}). Klicken, um diese Runde durchzugehen.',
  'generate.round.decoderOnly': 'Runde {n}: Das Modell liest „{input}“; das wahrscheinlichste Token der letzten Zeile ist „{token}“ ({p}). Der Walkthrough zeigt die letzte Runde (den Text mit allen generierten Tokens).',
  'generate.percent': '{value} %',
  'generate.prediction': 'Vorhersage: ',
  'generate.noBackward': 'Kein Rückwärtsdurchlauf für dieses Modell: {why}.',
  'generate.backwardMs': 'Rückwärtsdurchlauf {ms} ms',
  'generate.targets.label': 'Zielklasse für den Verlust: ',
  'generate.targets.class': 'Klasse {n}',
  'generate.targets.masks': 'Wörter hinter den [MASK]s (die Ziele des Verlusts):',
  'generate.targets.mask': '[MASK] {n}',
  'generate.targets.notOneToken': '[MASK] {n}: „{word}“ ist kein einzelnes Token des Vokabulars dieses Checkpoints (es wird zu {pieces}); der Verlust behält das letzte gültige Wort.',
  'generate.targets.noMask': 'Der Text enthält kein [MASK]: Der Verlust eines Masked-LM braucht eines. Tippen Sie [MASK] an die Stelle im Text, deren Wort erraten werden soll.',
};
