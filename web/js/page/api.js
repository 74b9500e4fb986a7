/**
 * api.js — window.encoderWalkthrough: a small JavaScript API for blog authors and tests.
 *
 *   await encoderWalkthrough.ready
 *       A Promise that resolves when the engine has loaded and the first trace is on screen.
 *
 *   encoderWalkthrough.getState()
 *       → the settings and text, with the same keys (and typed values) as the URL:
 *         {text, text2?, d_model, num_heads, d_ff, num_layers, decoder_layers, norm,
 *          activation, layer_norm_eps, causal, positional, scale, seed, tokenizer,
 *          bpe_merges? (tokenizer 'bpe' only), preset? (when a preset is chosen), step}
 *         text/text2 are absent for presets that give their own input rows.
 *
 *   await encoderWalkthrough.setState(partial)
 *       Merges `partial` (same keys; values typed or as URL strings) into the state and
 *       recomputes. {preset: name} first resets to that preset's settings; {preset: ''} to
 *       the defaults. Resolves with getState() once the new trace is rendered; rejects with
 *       an Error whose message says what is wrong (e.g. "config.num_heads (3) must divide
 *       config.d_model (8)"); the page shows the same message and keeps the last good trace.
 *       {step: id} alone just navigates.
 *
 *   await encoderWalkthrough.getTrace()
 *       → {tokens, text, config, steps: [{id, title, kind, shape, inputs, head, intervened, data}]}
 *         for the trace on screen; data is a Float32Array copy (row-major; -Infinity marks
 *         a masked entry). Step ids are those of docs/trace.md. The Worker keeps the trace
 *         and the page holds only the steps it has shown, so the result is a thenable (await
 *         it): awaiting fetches the rest first. The metadata is there at once, without
 *         fetching anything: getTrace().tokens, .text and .config. null before a trace.
 *
 *   encoderWalkthrough.goTo(stepId)
 *       Shows that step; returns true, or false when the trace has no such step.
 *
 *   await encoderWalkthrough.exportStep(stepId, format)
 *       → a File: format 'svg' | 'png' (the heatmap as shown, settings in its metadata),
 *         'csv' | 'npy' (the step's values), 'tex' (its formula), 'json' (the whole trace in
 *         the CLI's --json format; stepId is then ignored). Rejects for an unknown step/format.
 *
 *   await encoderWalkthrough.intervene({ablate: ['layer0.head1'], ablateMode: 'zero' | 'mean',
 *                                       set: {'layer0.W_q[1,2]': 0.5}, patchFrom: 'another sentence',
 *                                       patch: ['layer0.output@1,2'], lens: true, attribute: true})
 *       The what-if lab (issue 20; page/lab-page.js, lab/): the CLI's --ablate, --ablate-mode,
 *       --set, --patch-from, --patch, --lens, --attribute as data; every key optional. Replaces
 *       the interventions in force (it does not add to them), recomputes, turns the lab on and
 *       resolves with the spec applied once the intervened trace is on screen (getTrace() is
 *       then the CLI's --json with the same flags); intervene({}) resets to the model as
 *       trained. Rejects with the core's message for a bad id, cell, value or length (e.g.
 *       'cannot ablate "layer9.head0": …'); the page shows it and keeps the last good trace.
 *       The link then holds them: ablate=a,b & ablate_mode=mean & set=CELL=V;CELL=V &
 *       patch_from=TEXT & patch=ID@p,q;ID & lens=1 & attribute=1 (& lab=1: the lab open).
 *
 *   await encoderWalkthrough.sweep({kind: 'ablate', task?, mode?, seed?, n?})
 *   await encoderWalkthrough.sweep({kind: 'patch', patchFrom: 'donor sentence', text?})
 *       → the core's table (core/session/sweep.h; the CLI's analyze --ablate-sweep /
 *       --patch-sweep) for the model on screen, computed in the Worker; the lab draws it as a
 *       heatmap whose cells apply that intervention. task defaults to a trained preset's own,
 *       n to 200, text to the sentence on screen.
 *
 * Embedding (README, "Embed it in a blog post"): an iframe of "…/?view=figure&step=…" sized by
 * embed.js, the <encoder-walkthrough> element (component.js), or the single file. URL keys are
 * the model file's config keys plus text, text2, preset, step, and view, inputs, controls, theme,
 * lang (en | de: the page's language; language.js).
 *   Trained models (train/train-panel.js, generate.js, weights-io.js; README's table):
 *   await generate({maxTokens}?) → the generated tokens (at most maxTokens, default 32), once the final round is shown
 *   await train({task, steps, lr, seed, d_model, num_heads, d_ff, num_layers,
 *                decoder_layers, batch}, onProgress) → {steps, loss, accuracy, ms}
 *       (a second call while one runs rejects); stopTraining(); loadWeights(ArrayBuffer);
 *   await exportWeights() → ArrayBuffer (safetensors)
 *   Checkpoints (page/checkpoint.js, README "Open a checkpoint"):
 *   await loadCheckpoint(urlOrFiles) → {name, model_type, architecture, params, bytes, …} once
 *       its trace is on screen; urlOrFiles: a folder URL ending in "/" (same origin) or a
 *       FileList / array of File; rejects with an Error naming the file and what is wrong;
 *       loadCheckpoint(url, {chat: true}) wraps the text in its chat template (as chat=1)
 *   await setChat(on) → getChat() once the trace is on screen: the chat-template switch of a
 *       checkpoint whose tokenizer_config.json has a chat_template (page/chat.js); rejects with
 *       the catalog's message when the model has none or its template fails (the switch is then off)
 *   getChat() → {available, on, prompt}: prompt the rendered text the model reads, or null
 *
 * Embedding: <iframe src="https://…/?text=…&d_model=8&num_heads=2&step=layer0.head0.weights&embed=1"
 * width="100%" height="640" title="Encoder walkthrough"></iframe>. URL keys are the model
 * file's config keys plus text, text2, preset and step; embed=1 gives a compact layout.
 */
import { t } from '../lib/i18n.js';
import { parseValue, publicState, presetSettings, defaults, SETTING_KEYS } from '../model/settings.js';

export function installApi(app, hooks) {
  hooks.ready.catch(() => {});
  const api = {
    ready: hooks.ready.then(() => api),
    getState() {
      return publicState(app.shownState || app.state, app.presets);
    },
    async setState(partial = {}) {
      await hooks.ready;
      if (partial === null || typeof partial !== 'object') throw new Error('setState expects an object');
      const keys = Object.keys(partial);
      if (keys.length === 1 && keys[0] === 'step') {
        if (!api.goTo(String(partial.step))) throw new Error(`no step "${partial.step}" in this trace`);
        return api.getState();
      }
      const next = nextState(app, hooks, partial);
      app.state = next;
      hooks.syncForm(next, true);
      await hooks.requestCompute(next, { useStateStep: 'step' in partial || 'preset' in partial });
      return api.getState();
    },
    getTrace() {
      const t = app.trace;
      if (!t) return null;
      const head = () => ({ tokens: t.tokens.slice(), text: structuredClone(t.text), config: { ...t.config } });
      // Lazy: the steps are fetched only when the result is awaited (or .then is called).
      let whole = null;
      const fetchWhole = () => (whole ||= t.ensureAll(app.engine).then(() => ({
        ...head(),
        steps: t.steps.map((s) => ({
          id: s.id, title: s.title, kind: s.kind, shape: s.shape.slice(), inputs: s.inputs.slice(), head: s.head,
          intervened: !!s.intervened, data: s.data.slice(),
        })),
      })));
      return {
        ...head(),
        then: (ok, fail) => fetchWhole().then(ok, fail),
        catch: (fail) => fetchWhole().catch(fail),
      };
    },
    goTo(stepId) {
      return hooks.goTo(String(stepId));
    },
    async exportStep(stepId, format) {
      await hooks.ready;
      return hooks.exportStep(String(stepId), String(format));
    },
  };
  Object.assign(api, hooks.extra || {}); // generate, train, stopTraining, loadWeights, exportWeights (main.js)
  Object.defineProperty(window, 'encoderWalkthrough', { value: Object.freeze(api), configurable: false, writable: false });
  return api;
}

// The state setState(partial) asks for: {preset} first resets to that preset's settings (or
// the defaults), then every other key is parsed as the URL would be. A bad key or value is
// shown on the page and thrown.
function nextState(app, hooks, partial) {
  const fail = (msg) => {
    hooks.showError(msg);
    throw new Error(msg);
  };
  let next = { ...(app.shownState || app.state) };
  if ('preset' in partial) {
    const name = partial.preset || '';
    const p = app.presets.find((x) => x.name === name);
    if (name && !p) fail(t('api.unknownPreset', { name: String(name).slice(0, 60) }));
    next = p ? presetSettings(p) : defaults();
    if (!next.step) next.step = app.state.step;  // a preset opens on its own step
  }
  for (const k of Object.keys(partial)) {
    if (k === 'preset') continue;
    if (k === 'step') {
      next.step = String(partial.step);
      continue;
    }
    if (!SETTING_KEYS.includes(k)) fail(t('api.unknownSetting', { name: String(k).slice(0, 60) }));
    const r = parseValue(k, partial[k]);
    if (r.error) fail(r.error);
    next[k] = r.value;
  }
  return next;
}
