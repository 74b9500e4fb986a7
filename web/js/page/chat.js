// chat.js — the chat-template switch (issue 30): under the sentence, shown only while a
// checkpoint whose tokenizer_config.json has a chat_template is on screen. On, the typed text
// becomes one user's message rendered by that template with the assistant's turn opened
// (chat-template.js), and that text is what the model reads and generates after; the page
// shows it, the template's special tokens marked and the reader's own text underlined (as text:
// nothing of a template or a message is ever parsed as markup). The link keeps it as chat=1,
// the API as setChat(on) / getChat(). A template that fails (it does not parse, it raises, the
// renderer cannot load) turns the switch off with the catalog's message; the page goes on
// with the text as typed.
import { t } from '../lib/i18n.js';
import { $, el } from '../lib/dom.js';
import { app } from './app.js';
import { showNotice } from './messages.js';
import { CHECKPOINT_PRESET } from './run-options.js';
import { chatConfig, renderChat, modelText, promptRuns } from './chat-template.js';

let hooks = null;
const ui = {};

// The message of a coded error (chat-template.js), else its own text.
export function chatErrorText(e) {
  return e && e.code && e.code.startsWith('chat.') ? t(e.code, e.params || {}) : String((e && e.message) || e);
}

export function installChat(h) {
  hooks = h;
  const box = el('div', 'field chat-field');
  box.id = 'chat-field';
  box.hidden = true;
  const label = el('label', 'switch');
  ui.input = Object.assign(el('input'), { type: 'checkbox', id: 'chat' });
  label.append(ui.input, ' ', el('span', '', t('chat.switch')));
  label.title = t('chat.switchHint');
  ui.prompt = el('div', 'chat-prompt');
  ui.prompt.id = 'chat-prompt';
  ui.prompt.hidden = true;
  box.append(label, ui.prompt);
  $('text-note').after(box);
  ui.box = box;
  ui.input.addEventListener('change', () => setChat(ui.input.checked).catch(() => {}));
}

// A checkpoint was opened: its tokenizer_config.json's text (null without one). A file whose
// chat_template cannot be used keeps the switch, which then says why when turned on.
export function useChatSource(text, on) {
  let config = null, error = null;
  try {
    config = chatConfig(text);
  } catch (e) {
    error = e;
  }
  app.chat = { config, error, on: false, addsBos: null, prompt: null };
  const available = !!(config || error);
  if (on && !available) return t('chat.none');
  app.chat.on = !!on && available;
  return '';
}

export function chatAvailable() {
  return !!(app.chat && (app.chat.config || app.chat.error));
}
const onScreen = () => !!app.shownState && app.shownState.preset === CHECKPOINT_PRESET && chatAvailable();

// The text the engine gets for `state`: the rendered prompt while the switch is on (null: the
// text as typed). A failing template turns the switch off, says why (a notice that the run
// keeps: opts.keepNotice) and gives null.
export async function chatText(state, opts) {
  const c = app.chat;
  if (!c || !c.on || state.preset !== CHECKPOINT_PRESET) {
    if (c) c.prompt = null;
    return null;
  }
  try {
    if (c.error) throw c.error;
    const rendered = await renderChat(c.config, state.text);
    c.prompt = { typed: state.text, rendered };
    return modelText(rendered, c.config, c.addsBos);
  } catch (e) {
    c.on = false;
    c.prompt = null;
    setUrlKey(false);
    showNotice(t('chat.off') + chatErrorText(e));
    opts.keepNotice = true;
    return null;
  }
}

// After a wrapped run: whether the core's tokenizer added a BOS before the template's own
// (two in a row at the start). true: learned now, the run must be repeated without the
// template's (modelText); the answer is kept for the checkpoint.
export function learnBos(trace, sent) {
  const c = app.chat;
  const bos = c && c.config && c.config.tokens.bos_token;
  if (!c || !c.prompt || !bos || c.addsBos !== null) return false;
  const toks = (trace.text.source_tokens && trace.text.source_tokens[0]) || [];
  if (!sent.startsWith(bos)) {
    c.addsBos = toks[0] === bos;
    return false;
  }
  c.addsBos = toks[0] === bos && toks[1] === bos && !sent.startsWith(bos + bos);
  return c.addsBos;
}

function setUrlKey(on) {
  const extra = { ...(app.urlExtra || {}) };
  if (on) extra.chat = '1';
  else delete extra.chat;
  app.urlExtra = extra;
}

// The switch, from the API or the checkbox: recomputes; resolves with getChat() once the trace
// is on screen, rejects with the catalog's message when the template fails (the switch is then
// off and the text as typed on screen).
export async function setChat(on) {
  if (on && !onScreen()) {
    ui.input.checked = false;
    throw new Error(t(app.shownState && app.shownState.preset === CHECKPOINT_PRESET ? 'chat.none' : 'chat.noModel'));
  }
  if (!app.chat) return getChat();
  app.chat.on = !!on;
  setUrlKey(!!on);
  await hooks.requestCompute(app.state);
  if (on && !app.chat.on) throw new Error($('notice').firstChild ? $('notice').firstChild.textContent : t('chat.off'));
  return getChat();
}

export function getChat() {
  const c = app.chat;
  return { available: onScreen(), on: !!(c && c.on && onScreen()), prompt: c && c.on && c.prompt ? c.prompt.rendered : null };
}

// After every new trace: the switch shown for a checkpoint with a template, the prompt when on.
export function updateChat() {
  if (!ui.box) return;
  const shown = onScreen();
  ui.box.hidden = !shown;
  const c = app.chat;
  ui.input.checked = shown && !!c.on;
  const p = shown && c.on && c.prompt;
  ui.prompt.hidden = !p;
  if (!p) return ui.prompt.replaceChildren();
  const pre = el('pre', 'chat-rendered');
  for (const run of promptRuns(p.rendered, c.config.special, p.typed)) {
    if (run.kind === 'special') {
      const s = el('span', 'chat-special', run.text);
      s.title = t('chat.special');
      pre.append(s);
    } else if (run.kind === 'typed') pre.append(el('span', 'chat-typed', run.text));
    else pre.append(document.createTextNode(run.text));
  }
  ui.prompt.replaceChildren(el('p', 'small muted', t('chat.prompt')), pre, el('p', 'small muted', t('chat.legend')));
}

// The special tokens of the checkpoint on screen (for the token step's chips), or null.
export function specialTokens() {
  return onScreen() && app.chat.config ? new Set(app.chat.config.special) : null;
}
