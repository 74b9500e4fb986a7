// i18n/de/tokens.js — die Ansicht des Token-Schritts (render/tokens.js); siehe i18n/en/tokens.js.
const FC = '„Transformers - Fundamental Concepts with Python Implementation“';
const EF = '„Transformers: Walking Through the Encoder Forward Pass“';
export default {
  'tokens.rule.regex.name': `Regex-Tokenizer (aus ${FC})`,
  'tokens.rule.regex.rule': 'Wörter und Satzzeichen: \\b\\w+\\b|[.,!?;]',
  'tokens.rule.whitespace.name': `Leerzeichen-Tokenizer (aus ${EF})`,
  'tokens.rule.whitespace.rule': 'str.split(): an Folgen von Leerzeichen trennen',
  'tokens.rule.chars.name': 'Zeichen-Tokenizer',
  'tokens.rule.chars.rule': 'jedes Zeichen außer Leerzeichen ist ein Token: „(())“ und „( ( ) )“ werden gleich gelesen',
  'tokens.rule.bpe.name': `Byte-Pair-Encoding (BPE, aus ${FC})`,
  'tokens.rule.bpe.rule': 'Merges häufiger Symbolpaare lernen, dann jedes Wort in die gelernten Teilwörter zerlegen',
  'tokens.rule.input.name': 'Kein Tokenizer',
  'tokens.rule.input.rule': 'die Modelldatei gibt die Eingabezeilen direkt vor',
  'tokens.targetHeading': 'Tokens der Decoder-Eingabe (Teacher Forcing)',
  'tokens.targetNote': 'Der Decoder liest „<s>“ und dann die um eins nach rechts verschobene Zielsequenz (ohne vorgegebenes Ziel die Quelltokens) und sagt an jeder Position das nächste Token vorher.',
  'tokens.sentence': 'Satz {n}',
  'tokens.padNote': 'Der kürzere Satz wird mit <pad> (ID 0) auf dieselbe Länge aufgefüllt; die Aufmerksamkeitsmaske verbirgt das Padding.',
  'tokens.chipTitle': 'Position {i}: „{token}“',
  'tokens.chipTitleId': 'Position {i}: „{token}“, ID {id}',
  'tokens.chipId': 'ID {id}',
  'tokens.vocabSummary': 'Vokabular: {n} Tokens (ID → Token)',
  'tokens.vocabMore': '… und {n} weitere',
  'tokens.vocabOrder': 'Ohne vorgegebenes Vokabular sind die IDs <pad> <s> </s>, gefolgt von den Tokens des Textes in der Reihenfolge ihres ersten Auftretens.',
  'tokens.skipped.heading': 'Was der Tokenizer gelesen hat',
  'tokens.skipped.label': 'Der Satz, die vom Tokenizer übersprungenen Zeichen markiert',
  'tokens.skipped.mark': 'übersprungen: „{text}“',
  'tokens.skipped.quoted': '„{text}“',
  'tokens.skipped.none': 'Jedes Zeichen außer Leerraum wurde Teil eines Tokens.',
  'tokens.skipped.reason': ({ count, list }) =>
    `${count === 1 ? `Eine Stelle wurde übersprungen (${list})` : `${count} Stellen wurden übersprungen (${list})`}: Dort passt keines der beiden Muster des regulären Ausdrucks — \\b\\w+\\b braucht Buchstaben, Ziffern oder _, und [.,!?;] nimmt nur diese fünf Satzzeichen —, also verwirft der Tokenizer diese Zeichen, wie es re.findall im Tutorial tut. Das Modell sieht sie nie.`,
  'tokens.bpe.heading': 'BPE-Merges ({n})',
  'tokens.bpe.explain': 'Jeder Merge verbindet das häufigste benachbarte Symbolpaar im Vokabular des Korpus (Wörter in Zeichen zerlegt, mit </w> am Ende).',
  'tokens.bpe.learned.sentence': ({ merges, words }) =>
    `Diese ${merges} Merges wurden allein aus diesem Satz gelernt (${words} ${words === 1 ? 'Wort' : 'Wörter'}), nicht aus einem großen Korpus. Darum ist jedes Paar darin „häufig“: Mit genügend Merges wird ein ganzes Wort — sogar ein langes Wort ohne Leerzeichen wie „我爱自然语言处理“ — zu einem einzigen Token, weil nichts anderes konkurriert. Ein auf einem großen Korpus gelernter Tokenizer behält nur Paare, die in vielen Texten häufig sind.`,
  'tokens.bpe.learned.corpus': ({ merges, words }) =>
    `Diese ${merges} Merges wurden auf dem eigenen Korpus der Modelldatei gelernt (${words} ${words === 1 ? 'Wort' : 'Wörter'}) und dann auf diesen Satz angewendet.`,
  'tokens.bpe.learned.model': ({ corpus, merges }) =>
    `Diese ${merges} Merges wurden beim Training des Modells auf seinem Trainingskorpus gelernt${corpus ? ` (${corpus})` : ''} und werden mit seinen Gewichten mitgeliefert; dieser Satz wird nur mit ihnen zerlegt, aus ihm wird nichts gelernt.`,
  'tokens.bpe.corpus.builtin:masked-words': 'den Reden zur Lage der Nation (State of the Union) der US-Präsidenten',
  'tokens.bpe.table': 'BPE-Merges',
  'tokens.bpe.col.n': '#',
  'tokens.bpe.col.pair': 'häufigstes Paar',
  'tokens.bpe.col.count': 'Anzahl',
  'tokens.bpe.col.before': 'Vokabular vor dem Merge',
  'tokens.bpe.col.after': 'Vokabular nach dem Merge',
  'tokens.bpe.final': '-- Endgültiges Vokabular:',
};
