// i18n/en/adamw.js — the AdamW update panel under a parameter's gradient (render/adamw.js).
export default {
  'adamw.title': 'One AdamW update of this weight',
  'adamw.about': 'The first AdamW step (moments start at 0) with {hp} (λ: weight decay). Training uses the mean gradient of a batch, clipped to norm 1.',
  'adamw.aboutNoDecay': 'The first AdamW step (moments start at 0) with {hp} (λ: weight decay, not applied here: only matrices decay). Training uses the mean gradient of a batch, clipped to norm 1.',
  'adamw.decay': 'decay',
  'adamw.noDecay': 'none (only matrices decay), w stays',
};
