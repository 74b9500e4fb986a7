// i18n/en/tokens.js — the token step's view (render/tokens.js): the tokenizer's rule, the
// chips, what the regex skipped and why, the vocabulary, and what BPE's merges were learned on.
const FC = '“Transformers - Fundamental Concepts with Python Implementation”';
const EF = '“Transformers: Walking Through the Encoder Forward Pass”';
export default {
  'tokens.rule.regex.name': `Regex tokenizer (from ${FC})`,
  'tokens.rule.regex.rule': 'words and punctuation: \\b\\w+\\b|[.,!?;]',
  'tokens.rule.whitespace.name': `Whitespace tokenizer (from ${EF})`,
  'tokens.rule.whitespace.rule': 'str.split(): split on runs of spaces',
  'tokens.rule.chars.name': 'Character tokenizer',
  'tokens.rule.chars.rule': 'every character that is not a space is one token: “(())” and “( ( ) )” read alike',
  'tokens.rule.bpe.name': `Byte-pair encoding (from ${FC})`,
  'tokens.rule.bpe.rule': 'learn merges of frequent symbol pairs, then split each word into the learned subwords',
  'tokens.rule.input.name': 'No tokenizer',
  'tokens.rule.input.rule': 'the model file gives the input rows directly',
  'tokens.targetHeading': 'Decoder input tokens (teacher forcing)',
  'tokens.targetNote': 'The decoder reads “<s>” then the target sequence shifted right by one (the source tokens when no target is given), and at each position predicts the next token.',
  'tokens.sentence': 'Sentence {n}',
  'tokens.padNote': 'The shorter sentence is padded with <pad> (id 0) so both have the same length; the attention mask hides the padding.',
  'tokens.chipTitle': 'position {i}: “{token}”',
  'tokens.chipTitleId': 'position {i}: “{token}”, id {id}',
  'tokens.chipId': 'id {id}',
  'tokens.vocabSummary': 'Vocabulary: {n} tokens (id → token)',
  'tokens.vocabMore': '… and {n} more',
  'tokens.vocabOrder': 'Without a given vocabulary, the ids are <pad> <s> </s> followed by the text’s tokens in order of first appearance.',
  'tokens.skipped.heading': 'What the tokenizer read',
  'tokens.skipped.label': 'The sentence, with the characters the tokenizer skipped marked',
  'tokens.skipped.mark': 'skipped: “{text}”',
  'tokens.skipped.quoted': '“{text}”',
  'tokens.skipped.none': 'Every character other than white space became part of a token.',
  'tokens.skipped.reason': ({ count, list }) =>
    `${count === 1 ? `One place was skipped (${list})` : `${count} places were skipped (${list})`}: neither pattern of the regex matches there — \\b\\w+\\b needs letters, digits or _, and [.,!?;] only takes those five punctuation marks — so the tokenizer drops these characters, as the tutorial’s re.findall does. The model never sees them.`,
  'tokens.bpe.heading': 'BPE merges ({n})',
  'tokens.bpe.explain': 'Each merge joins the most frequent adjacent pair of symbols in the corpus vocabulary (words split into characters, ending in </w>).',
  'tokens.bpe.learned.sentence': ({ merges, words }) =>
    `These ${merges} merges were learned on this sentence alone (${words} ${words === 1 ? 'word' : 'words'}), not on a large corpus. So every pair that occurs in it is “frequent”: with enough merges a whole word — even a word of many characters with no spaces, like “我爱自然语言处理” — becomes one token, because nothing else competes. A tokenizer learned on a large corpus keeps only pairs common across many texts.`,
  'tokens.bpe.learned.corpus': ({ merges, words }) =>
    `These ${merges} merges were learned on the model file’s own corpus (${words} ${words === 1 ? 'word' : 'words'}), then applied to this sentence.`,
  'tokens.bpe.learned.model': ({ corpus, merges }) =>
    `These ${merges} merges were learned when the model was trained, on its training corpus${corpus ? ` (${corpus})` : ''}, and travel with its weights; this sentence is only split by them, nothing is learned from it.`,
  'tokens.bpe.corpus.builtin:masked-words': 'the State of the Union addresses',
  'tokens.bpe.table': 'BPE merges',
  'tokens.bpe.col.n': '#',
  'tokens.bpe.col.pair': 'most frequent pair',
  'tokens.bpe.col.count': 'count',
  'tokens.bpe.col.before': 'vocab before merge',
  'tokens.bpe.col.after': 'vocab after merge',
  'tokens.bpe.final': '-- Final vocab:',
};
