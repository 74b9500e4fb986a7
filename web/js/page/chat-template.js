// chat-template.js — a checkpoint's chat template (issue 30), without the DOM: what its
// tokenizer_config.json says (chat_template as a string, or a list of named templates of which
// "default" is used; the special tokens a template may name: bos_token, eos_token, … as a string
// or an AddedToken {content}), and one typed text wrapped as a user's message the way
// transformers' (and transformers.js's) apply_chat_template wraps it: messages = [{role: 'user',
// content}], add_generation_prompt = true, the seven special-token names as variables. The
// renderer, @huggingface/jinja (the one transformers.js uses; no eval, so the page's CSP holds),
// is imported on first use only: its own chunk, never part of a first visit.
// A file a reader opened is untrusted: every failure is an Error with a `code` of the catalog
// area `chat` (chat.err.*) and its `params`, never a crash.

// The variables transformers.js gives a template besides messages (its SPECIAL_TOKEN_ATTRIBUTES).
export const TOKEN_KEYS = ['bos_token', 'eos_token', 'unk_token', 'sep_token', 'pad_token', 'cls_token', 'mask_token'];
const MAX_TEMPLATE = 1 << 20; // 1 MiB: real templates are under 20 KB

function fail(code, params = {}) {
  return Object.assign(new Error(`${code}: ${JSON.stringify(params)}`), { code, params });
}

// A special token's text: "<s>" or {"content": "<s>", …}; null when absent or neither.
function tokenText(v) {
  if (typeof v === 'string') return v;
  if (v && typeof v === 'object' && typeof v.content === 'string') return v.content;
  return null;
}

// tokenizer_config.json's text → null (no chat template: no switch) or {template, tokens,
// special}: tokens the seven names' strings (those it has), special every string the tokenizer
// marks special (added_tokens_decoder's special: true, additional_special_tokens and the seven),
// longest first. Throws a coded Error for a file or a chat_template it cannot use.
export function chatConfig(text) {
  if (typeof text !== 'string' || !text.trim()) return null;
  let c;
  try {
    c = JSON.parse(text);
  } catch (e) {
    throw fail('chat.err.notJson', { why: String(e.message).slice(0, 200) });
  }
  if (!c || typeof c !== 'object' || Array.isArray(c)) throw fail('chat.err.notJson', { why: 'not an object' });
  let template = c.chat_template;
  if (template === undefined || template === null) return null;
  if (Array.isArray(template)) {
    const named = template.filter((x) => x && typeof x === 'object' && typeof x.name === 'string' && typeof x.template === 'string');
    if (named.length !== template.length) throw fail('chat.err.badList');
    const d = named.find((x) => x.name === 'default');
    if (!d) throw fail('chat.err.noDefault', { names: named.map((x) => x.name).join(', ').slice(0, 200) });
    template = d.template;
  }
  if (typeof template !== 'string') throw fail('chat.err.notString', { type: typeof template });
  if (!template.trim()) return null;
  if (template.length > MAX_TEMPLATE) throw fail('chat.err.tooLong', { kb: Math.round(template.length / 1024) });
  const tokens = {};
  for (const k of TOKEN_KEYS) {
    const s = tokenText(c[k]);
    if (s !== null) tokens[k] = s;
  }
  const special = new Set(Object.values(tokens));
  for (const v of Object.values(c.added_tokens_decoder || {})) if (v && v.special === true && tokenText(v)) special.add(tokenText(v));
  for (const v of Array.isArray(c.additional_special_tokens) ? c.additional_special_tokens : []) if (tokenText(v)) special.add(tokenText(v));
  special.delete('');
  return { template, tokens, special: [...special].sort((a, b) => b.length - a.length) };
}

let jinja = null;
// The renderer's module, imported once (a separate chunk: scripts/bundle-site.mjs splits it off).
export function loadJinja() {
  return (jinja ||= import('@huggingface/jinja').catch((e) => {
    jinja = null;
    throw fail('chat.err.load', { why: String(e.message || e).slice(0, 200) });
  }));
}

const parsed = new Map(); // template text → Template (a reader toggles and retypes often)
class Raised extends Error {}

// The typed text as the model reads it: the template rendered for one user message with the
// generation prompt. `opts.generationPrompt` false only for tests (the planted defect).
export async function renderChat(config, text, opts = {}) {
  const { Template, Environment } = await loadJinja();
  let tpl = parsed.get(config.template);
  if (!tpl) {
    try {
      tpl = new Template(config.template);
    } catch (e) {
      throw fail('chat.err.parse', { why: String(e.message || e).slice(0, 300) });
    }
    if (parsed.size > 8) parsed.clear();
    parsed.set(config.template, tpl);
  }
  // transformers' raise_exception (the template refusing the conversation, saying why) is a
  // global the renderer declares itself and a template's variables cannot replace: for this one
  // synchronous render, its declaration is swapped for one whose error is told apart.
  const proto = Environment.prototype, set = proto.set;
  const raise = (msg) => {
    throw new Raised(String(msg));
  };
  let out;
  try {
    proto.set = function (name, value) {
      return set.call(this, name, name === 'raise_exception' ? raise : value);
    };
    out = tpl.render({
      messages: [{ role: 'user', content: String(text) }],
      add_generation_prompt: opts.generationPrompt !== false,
      ...config.tokens,
    });
  } catch (e) {
    if (e instanceof Raised) throw fail('chat.err.raised', { why: e.message.slice(0, 300) });
    throw fail('chat.err.render', { why: String(e.message || e).slice(0, 300) });
  } finally {
    proto.set = set;
  }
  if (typeof out !== 'string') throw fail('chat.err.render', { why: `rendered ${typeof out}, not text` });
  return out;
}

// The rendered text cut into runs: {text, special: true} for each special token's text (the
// longest first at any place, as a tokenizer finds added tokens), else {text, typed} where
// `typed` says whether the run is the reader's own text (found once, after the template's
// head) — for showing what the template added around the message.
export function promptRuns(rendered, special, typed) {
  const at = typed ? rendered.indexOf(typed) : -1;
  const runs = [];
  const push = (text, kind) => {
    if (!text) return;
    const last = runs[runs.length - 1];
    if (last && last.kind === kind && kind !== 'special') last.text += text;
    else runs.push({ text, kind });
  };
  let i = 0;
  while (i < rendered.length) {
    if (at >= 0 && i === at) {
      push(typed, 'typed');
      i += typed.length;
      continue;
    }
    const sp = special.find((s) => rendered.startsWith(s, i));
    if (sp) {
      push(sp, 'special');
      i += sp.length;
      continue;
    }
    push(rendered[i], 'template');
    i++;
  }
  return runs;
}

// The text the core tokenizes. transformers tokenizes a rendered chat without adding special
// tokens (apply_chat_template: add_special_tokens=False), so a template that writes the BOS
// itself ("<bos>…", "<|begin_of_text|>…") gives one BOS; the core's tokenizer always runs the
// file's post-processor, which for Gemma 3 and Llama 2 (and some Llama 3 files) adds one more.
// addsBos (the core was seen to add bos_token before a text without it): that leading BOS is
// left to the core, so the model reads one BOS, as under transformers.
export function modelText(rendered, config, addsBos) {
  const bos = config.tokens.bos_token;
  return addsBos && bos && rendered.startsWith(bos) ? rendered.slice(bos.length) : rendered;
}
