// i18n/en/provenance.js — where the weights come from (web/js/provenance.js), in one line.
export default {
  'provenance.trained': 'Trained on {task} ({steps} steps, seed {seed}).',
  'provenance.trainedPreset': 'Trained weights: “{title}”.',
  'provenance.task.number-words': 'number words → digits',
  'provenance.task.dates': 'dates → yyyy-mm-dd',
  'provenance.task.brackets': 'telling balanced brackets from unbalanced ones',
  'provenance.task.masked-words': 'filling in masked words',
  'provenance.userTrained': 'Weights trained in this page: task {task}, {steps} steps (held-out {metric} {acc} on {n} examples the training never saw).',
  'provenance.accuracy': 'accuracy',
  'provenance.exact': 'exact match',
  'provenance.percent': '{value}%',
  'provenance.loaded': 'Weights loaded from {name} ({bytes} bytes of safetensors).',
  'provenance.given': 'The tutorial’s own numbers (“{title}”); weights it does not give are seeded. Nothing here was trained.',
  'provenance.seeded': 'Random weights (seed {seed}): attention is noise here.',
  'provenance.quoted': '“{w}”',
  'provenance.unknown': ({ V, n, unk, words }) => `${words} ${n > 1 ? 'are' : 'is'} not in this model’s vocabulary of ${V} tokens: it reads ${n > 1 ? 'them' : 'it'} as ${unk}, one vector for every unknown word.`,
  'provenance.checkpoint': 'Pretrained weights from the checkpoint “{name}” (model.safetensors).',
};
