// i18n/en/attention.js — English messages of the attention view (render/attention.js): the
// line view of who attends to whom and the thumbnails of every head.
export default {
  'attention.whoTitle': 'Who attends to whom',
  'attention.whoHelp': 'Each line joins a query token (left) to a key token (right); the stronger the weight, the darker the line. Point at or focus a token on the left to see only its lines with their weights.',
  'attention.headsShown': 'heads shown in the line view',
  'attention.head': 'head {h}',
  'attention.layer': 'layer {n}',
  'attention.decoderLayer': 'decoder {n}',
  'attention.linesLabel': 'Attention lines from {q} query tokens to {k} key tokens',
  'attention.queryLabel': '“{tok}” (query {i}): show its attention',
  'attention.manyTokens': 'many tokens: point at a query token to draw its lines',
  'attention.allLayers': 'All {layers} layers × {heads} heads',
  'attention.allHeads': 'All {heads} heads of this attention block',
  'attention.thumbHelp': 'Each thumbnail is one head’s attention weights A (rows: queries, columns: keys), coloured from 0 to that head’s largest weight. Click one to go to it.',
  'attention.thumbLabel': '{cap}: {title}',
  'attention.thumbLabelCurrent': '{cap}: {title} (this step)',
  'attention.thumbTitle': 'head {h}: colours from 0 to {max}',
};
