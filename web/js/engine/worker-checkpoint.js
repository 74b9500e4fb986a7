// worker-checkpoint.js — the Worker's side of opening a Hugging Face checkpoint (issue 19): the
// files come from a folder URL (fetched here) or from File objects (read here), and go chunk by
// chunk straight into buffers the engine allocated in the wasm heap (Engine.stageCheckpointFile),
// so the 440 MB of a BERT-base file are never held twice; then the core loads them
// (Engine.loadCheckpoint: core/session/session.h) and keeps them for every later run.
//   {action:'openCheckpoint', url?: 'https://…/folder/', files?: [File…], name}
//     → progress {phase:'download'|'read', file, loaded, total} then {phase:'load'};
//       result {info: {name, model_type, architecture, params, bytes, file_bytes, …}, generation,
//               tokenizerConfig: tokenizer_config.json's text or null — the page reads its
//               chat_template (page/chat-template.js); the core reads the file for itself}
//   {action:'memory'} → {wasmBytes, heapInUse} (tests/browser/measure-checkpoint.mjs)
//   errors carry a code of the catalog area `errors` (checkpoint_http, checkpoint_network,
//   checkpoint_cors, checkpoint_insecure, checkpoint_missing, checkpoint_size, checkpoint_core)
//   and its params.

const TOKENIZER_SETS = [['tokenizer.json'], ['vocab.txt'], ['vocab.json', 'merges.txt']];
const KNOWN = ['config.json', 'model.safetensors', 'tokenizer.json', 'vocab.txt', 'vocab.json', 'merges.txt', 'tokenizer_config.json'];

function fail(code, params, text) {
  return Object.assign(new Error(text), { code, params });
}

// Progress, at most every 100 ms (and always at 100 %).
function reporter(id, phase) {
  let last = 0;
  return (file, loaded, total) => {
    const now = performance.now();
    if (now - last < 100 && loaded < total) return;
    last = now;
    postMessage({ id, progress: { phase, file, loaded, total } });
  };
}

// Copies a stream of `size` bytes into the engine's buffer for `file`, chunk by chunk; the view
// is taken again for every chunk (a memory growth elsewhere detaches the old one).
async function streamInto(engine, file, size, stream, progress, base, total) {
  if (!engine.stageCheckpointFile(file, size)) throw fail('checkpoint_size', { file, mb: Math.round(size / 1e6) }, `${file}: no memory for ${size} bytes`);
  const reader = stream.getReader();
  let at = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (at + value.length > size) throw fail('checkpoint_size', { file, mb: Math.round(size / 1e6) }, `${file}: more bytes than announced`);
    engine.stagedView(file).set(value, at);
    at += value.length;
    progress(file, base + at, total);
  }
  if (at !== size) throw fail('checkpoint_short', { file, got: at, size }, `${file}: ${at} of ${size} bytes arrived`);
}

// A whole small file (or a response of unknown length) into the engine's buffer.
async function putBytes(engine, file, bytes) {
  if (!engine.stageCheckpointFile(file, bytes.length)) throw fail('checkpoint_size', { file, mb: Math.round(bytes.length / 1e6) }, `${file}: no memory`);
  engine.stagedView(file).set(bytes, 0);
}

// A fetch the browser refuses says why in words: another host must be https: (the page's
// connect-src: 'self' https:) and must allow this page by CORS; a bare TypeError says neither.
async function get(url, file, optional) {
  const u = new URL(url);
  const other = u.origin !== self.location.origin;
  if (other && u.protocol !== 'https:') throw fail('checkpoint_insecure', { file, url }, `${file}: ${url} is on another host over ${u.protocol}; only https: hosts that allow cross-origin requests can be read`);
  let r;
  try {
    r = await fetch(url);
  } catch (e) {
    const code = other ? 'checkpoint_cors' : 'checkpoint_network';
    throw fail(code, { file, url, host: u.host }, `${file}: could not be fetched from ${url} (${e.message})`);
  }
  if (r.status === 404 && optional) return null;
  if (!r.ok) throw fail('checkpoint_http', { file, url, status: r.status }, `${file}: HTTP ${r.status} at ${url}`);
  return r;
}

// Each returns tokenizer_config.json's text (null without one): the page's chat template.
async function fromUrl(engine, base, progress) {
  const url = (f) => new URL(f, base).href;
  let done = 0;
  let config = null;
  const small = async (file, optional) => {
    const r = await get(url(file), file, optional);
    if (!r) return false;
    const bytes = new Uint8Array(await r.arrayBuffer());
    await putBytes(engine, file, bytes);
    if (file === 'tokenizer_config.json') config = new TextDecoder().decode(bytes);
    done += bytes.length;
    return true;
  };
  await small('config.json', false);
  for (const set of TOKENIZER_SETS) {
    if (!(await small(set[0], true))) continue;
    for (const f of set.slice(1)) await small(f, false);
    break;
  }
  await small('tokenizer_config.json', true);
  // A sharded checkpoint (model.safetensors.index.json and the shards its weight_map names), else one file.
  const index = await get(url(INDEX), INDEX, true);
  const indexText = index ? await index.text() : null;
  const names = index ? shardNames(indexText) : ['model.safetensors'];
  if (index) await putBytes(engine, INDEX, new TextEncoder().encode(indexText));
  for (const file of names) done = await weightsFile(engine, file, await get(url(file), file, false), progress, done);
  return config;
}

const INDEX = 'model.safetensors.index.json';
// The shard files an index names (each once), refusing a name that leaves the folder.
function shardNames(text) {
  let map;
  try {
    map = JSON.parse(text).weight_map;
  } catch (e) {
    throw fail('checkpoint_core', { why: `${INDEX}: not JSON (${e.message})` }, `${INDEX}: not JSON`);
  }
  const names = [...new Set(Object.values(map || {}))].sort();
  const bad = names.find((n) => typeof n !== 'string' || !n.endsWith('.safetensors') || n.includes('/') || n === 'model.safetensors');
  if (!names.length || bad !== undefined) throw fail('checkpoint_core', { why: `${INDEX}: weight_map names no shard files${bad ? ` (${bad})` : ''}` }, `${INDEX}: bad weight_map`);
  return names;
}

// One weights file from response r, streamed into the engine when its length is known.
async function weightsFile(engine, file, r, progress, done) {
  const length = Number(r.headers.get('content-length'));
  const coding = (r.headers.get('content-encoding') || 'identity').toLowerCase();
  if (length > 0 && coding === 'identity' && r.body) {
    await streamInto(engine, file, length, r.body, progress, done, done + length);
    return done + length;
  }
  const bytes = new Uint8Array(await r.arrayBuffer());  // length unknown (compressed, chunked): held in JS until it has all arrived
  await putBytes(engine, file, bytes);
  return done + bytes.length;
}

async function fromFiles(engine, files, progress) {
  const byName = new Map();
  const all = new Map(files.map((f) => [f.name, f]));
  for (const f of files) if (KNOWN.includes(f.name)) byName.set(f.name, f);
  // Sharded: the index and every shard it names (a missing one is named, as the core names it).
  const needed = ['config.json'];
  if (!byName.has('model.safetensors') && all.has(INDEX)) {
    for (const n of shardNames(await all.get(INDEX).text())) {
      needed.push(n);
      if (all.has(n)) byName.set(n, all.get(n));
    }
    byName.set(INDEX, all.get(INDEX));
  } else needed.push('model.safetensors');
  for (const need of needed)
    if (!byName.has(need)) throw fail('checkpoint_missing', { file: need }, `${need}: missing among the files given`);
  const total = [...byName.values()].reduce((a, f) => a + f.size, 0);
  let done = 0;
  for (const [name, f] of byName) {
    await streamInto(engine, name, f.size, f.stream(), progress, done, total);
    done += f.size;
  }
  return byName.has('tokenizer_config.json') ? byName.get('tokenizer_config.json').text() : null;
}

async function openCheckpoint(msg, M, getEngine, state) {
  const engine = getEngine();
  const steps = engine.stepCount();
  let tokenizerConfig = null;
  try {
    if (msg.url) tokenizerConfig = await fromUrl(engine, msg.url, reporter(msg.id, 'download'));
    else tokenizerConfig = await fromFiles(engine, msg.files || [], reporter(msg.id, 'read'));
  } catch (e) {
    engine.clearCheckpointFiles();
    if (engine.stepCount() !== steps) state.bump();
    throw e;
  }
  postMessage({ id: msg.id, progress: { phase: 'load' } });
  const info = JSON.parse(engine.loadCheckpoint(msg.name || ''));
  if (engine.stepCount() !== steps) state.bump();  // the old checkpoint's trace went with it
  if (!info.ok) throw fail('checkpoint_core', { why: info.error }, info.error);
  return { info, tokenizerConfig };
}

// The wasm memory (its peak: it never shrinks) and the C++ heap in use, for the measurement.
function memory(msg, M) {
  return { wasmBytes: M.wasmMemoryBytes(), heapInUse: M.heapBytesInUse() };
}

export const CHECKPOINT_ACTIONS = { openCheckpoint, memory };
