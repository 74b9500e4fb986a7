// prediction.js — the model's answer before and after the interventions, from the engine's
// reply: "baseline_prediction" (the same run without them) beside the run's own answer (a
// classifier's label, the generated tokens, or — teacher-forced — each position's next token).
import { t } from '../lib/i18n.js';

// The answer in one line of text, or null when the reply holds none.
export function answerOf(r) {
  if (!r) return null;
  if (Array.isArray(r.generated)) return r.generated.join(' ');
  if (Array.isArray(r.next_tokens)) return r.next_tokens.join(' ');
  if (r.prediction && r.prediction.label !== undefined) return String(r.prediction.label);
  return null;
}

// {line, note} for the panel, or null when there is no baseline to compare with.
export function predictionLine(meta) {
  if (!meta || !meta.baseline_prediction) return null;
  const before = answerOf(meta.baseline_prediction), after = answerOf(meta);
  if (before === null || after === null) return null;
  const same = before === after;
  return {
    before,
    after,
    line: same ? t('lab.predictionSame', { after }) : t('lab.prediction', { before, after }),
    note: same ? t('lab.note.same', { after }) : t('lab.note.changed', { before, after }),
  };
}
