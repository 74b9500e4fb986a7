// i18n/en/alignment.js — the cross-attention alignment pictures (render/alignment.js).
export default {
  'alignment.title': 'Alignment: which source word each output token looks at',
  'alignment.how': 'Every head of every decoder layer’s cross-attention. Row: the position that produces the token on its left (→); column: the source token. Darker = more weight. Click a cell for its arithmetic.',
  'alignment.layer': 'decoder layer {l}',
  'alignment.head': 'head {h}',
  'alignment.label': 'head {h}: {out} output tokens by {src} source tokens',
  'alignment.cell': 'head {h}, decoder layer {l}: while producing “{out}”, {pct}% of the attention goes to “{src}”',
};
