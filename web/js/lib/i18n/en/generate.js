// i18n/en/generate.js — the model's answer (generate.js): greedy generation's rounds, a
// classifier's prediction, and the backward-pass switch's timing line.
export default {
  'generate.button': 'Generate ▶',
  'generate.buttonTitle': 'Greedy decoding: run the decoder, take the most probable next token, append it, run again, until </s>',
  'generate.needsDecoder': 'generation needs an encoder–decoder model (decoder layers > 0)',
  'generate.output': 'Output: {tokens}',
  'generate.nothing': '(nothing before </s>)',
  'generate.round': 'Round {n}: the decoder reads “{input}”; the last row\'s most probable token is “{token}” ({p}). Click to walk through this round.',
  'generate.percent': '{value}%',
  'generate.prediction': 'Prediction: ',
  'generate.noBackward': 'No backward pass for this model: {why}.',
  'generate.backwardMs': 'backward pass {ms} ms',
};
