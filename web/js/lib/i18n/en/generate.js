// i18n/en/generate.js — the model's answer (generate.js): greedy generation's rounds, a
// classifier's prediction, and the backward-pass switch's timing line.
export default {
  'generate.button': 'Generate ▶',
  'generate.buttonTitle': 'Greedy decoding: run the decoder, take the most probable next token, append it, run again, until </s>',
  'generate.buttonTitle.decoderOnly': 'Greedy generation: run the model on the text, take the most probable next token, append it, run again, until <|endoftext|> or the length limit',
  'generate.needsDecoder': 'generation needs an encoder–decoder model (decoder layers > 0) or a decoder-only checkpoint (GPT-2)',
  'generate.badMax': 'maxTokens must be a whole number from 1 to 100000, got {value}',
  'generate.output': 'Output: {tokens}',
  'generate.nothing': '(nothing before </s>)',
  'generate.nothing.decoderOnly': '(nothing before <|endoftext|>)',
  'generate.round': 'Round {n}: the decoder reads “{input}”; the last row\'s most probable token is “{token}” ({p}). Click to walk through this round.',
  'generate.round.decoderOnly': 'Round {n}: the model reads “{input}”; the last row\'s most probable token is “{token}” ({p}). The walkthrough shows the last round (the text with every generated token).',
  'generate.percent': '{value}%',
  'generate.prediction': 'Prediction: ',
  'generate.noBackward': 'No backward pass for this model: {why}.',
  'generate.backwardMs': 'backward pass {ms} ms',
  'generate.targets.label': 'Target class for the loss: ',
  'generate.targets.class': 'class {n}',
  'generate.targets.masks': 'Words behind the [MASK]s (the loss\'s targets):',
  'generate.targets.mask': '[MASK] {n}',
  'generate.targets.notOneToken': '[MASK] {n}: “{word}” is not one token of this checkpoint\'s vocabulary (it becomes {pieces}); the loss keeps the last word that was.',
  'generate.targets.noMask': 'The text has no [MASK]: a masked LM\'s loss needs one. Type [MASK] in the text where a word should be guessed.',
};
