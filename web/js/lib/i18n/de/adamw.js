// i18n/de/adamw.js — das AdamW-Update unter dem Gradienten eines Parameters (render/adamw.js).
export default {
  'adamw.title': 'Ein AdamW-Update dieses Gewichts',
  'adamw.about': 'Der erste AdamW-Schritt (die Momente beginnen bei 0) mit {hp} (λ: Gewichtsabnahme bzw. Weight Decay). Das Training verwendet den mittleren Gradienten eines Batches, auf Norm 1 begrenzt (Clipping).',
  'adamw.aboutNoDecay': 'Der erste AdamW-Schritt (die Momente beginnen bei 0) mit {hp} (λ: Gewichtsabnahme bzw. Weight Decay, hier nicht angewandt: nur Matrizen erhalten sie). Das Training verwendet den mittleren Gradienten eines Batches, auf Norm 1 begrenzt (Clipping).',
  'adamw.decay': 'Gewichtsabnahme',
  'adamw.noDecay': 'keine (nur Matrizen erhalten sie), w bleibt',
};
