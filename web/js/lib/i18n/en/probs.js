// i18n/en/probs.js — English messages of the predictions read from the output probabilities
// (render/probs.js).
export default {
  'probs.fillsTitle': 'The fills of each [MASK] (top 5)',
  'probs.topTitle': 'Top predictions at each position',
  'probs.labelsTitle': 'Label probabilities',
  'probs.seededNote': 'Weights are seeded, not trained, so the predictions are arbitrary — but every number is the real softmax of the real logits.',
  'probs.maskNote': 'The trained model’s five most likely tokens at each [MASK], read from the words around it (the grid below has its guess at every position).',
  'probs.lmNote': 'The model’s {k} most likely next tokens after each prefix of the input (the last row: after all of it).',
  'probs.trainedNote': 'The trained model’s three most likely next tokens after each prefix (the last row: after the whole decoder input).',
  'probs.at': 'at “{tok}” (position {pos})',
  'probs.after': 'after “{prefix}”',
  'probs.sentence': 'sentence {n}',
  'probs.label': 'label',
  'probs.labelN': 'label {j}',
  'probs.notShown': ({ n }) => (n === 1 ? '… 1 position not listed (the grid below has every row)' : `… ${n} positions not listed (the grid below has every row)`),
};
