// wllama_peer.mjs — wllama (@wllama/wllama: llama.cpp compiled to wasm) as a peer for
// decoders.mjs. wllama is built for browsers (a module Worker made from a Blob URL, fetch, OPFS),
// so it runs in headless Chromium (Debian's, through playwright-core, launched with the flags of
// tests/harness.mjs) on a page (bench/browser/wllama.html) this file serves on 127.0.0.1 with
// Cross-Origin-Opener-Policy / -Embedder-Policy, so the page is cross-origin isolated and wllama
// can use its pthreads build (n_threads 2) as well as one thread. The GGUF files come from
// gguf.mjs, written from the same weights as the safetensors our Engine loads (F32 and F16).
// Greedy generation of GEN tokens from the prompt's ids (createCompletion with temperature 0,
// no prompt cache); its timings (prompt_ms, predicted_ms / predicted_n) are llama.cpp's own.
// Its completion API (3.13.0) gives no raw logits; with temperature 0 its n_probs are the
// post-sampling probabilities (the pick at log-probability 0), and a request with temperature > 0
// or a prompt of token ids fails inside its worker ("Invalid typed array length"). So the prompt
// goes as the text that our tokenizer and llama.cpp's both split into the same 16 ids (prompt_n is
// checked), and the check is on the 64 generated ids (each step's id from n_probs).
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { writeGguf } from './gguf.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url)), ROOT = path.resolve(HERE, '..', '..');
const WLLAMA = path.join(HERE, 'node_modules/@wllama/wllama');
const N_PROBS = 1;
const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript', '.wasm': 'application/wasm', '.gguf': 'application/octet-stream' };

function serve(routes) {
  const server = http.createServer((req, res) => {
    const u = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    let file = null;
    for (const [prefix, dir] of routes) if (u.startsWith(prefix)) { file = path.join(dir, u.slice(prefix.length)); break; }
    if (!file || !fs.existsSync(file) || !fs.statSync(file).isFile()) { res.writeHead(404); res.end(); return; }
    const size = fs.statSync(file).size, h = { 'Content-Type': TYPES[path.extname(file)] || 'application/octet-stream', 'Cross-Origin-Opener-Policy': 'same-origin',
                                               'Cross-Origin-Embedder-Policy': 'require-corp', 'Cross-Origin-Resource-Policy': 'same-origin', 'Accept-Ranges': 'bytes' };
    const range = /bytes=(\d+)-(\d*)/.exec(req.headers.range || '');
    if (range) {
      const a = Number(range[1]), b = range[2] ? Number(range[2]) : size - 1;
      res.writeHead(206, { ...h, 'Content-Range': `bytes ${a}-${b}/${size}`, 'Content-Length': b - a + 1 });
      if (req.method === 'HEAD') return res.end();
      fs.createReadStream(file, { start: a, end: b }).pipe(res);
    } else {
      res.writeHead(200, { ...h, 'Content-Length': size });
      if (req.method === 'HEAD') return res.end();
      fs.createReadStream(file).pipe(res);
    }
  });
  return new Promise((ok) => server.listen(0, '127.0.0.1', () => ok(server)));
}

// The byte-level BPE's printable stand-ins back to bytes (GPT-2's bytes_to_unicode inverted), for
// turning llama.cpp's token texts into our ids.
function byteDecoder() {
  const bs = [];
  for (let b = 33; b <= 126; b++) bs.push(b);
  for (let b = 161; b <= 172; b++) bs.push(b);
  for (let b = 174; b <= 255; b++) bs.push(b);
  const cs = [...bs];
  let n = 0;
  for (let b = 0; b < 256; b++) if (!bs.includes(b)) { bs.push(b); cs.push(256 + n++); }
  const m = new Map();
  bs.forEach((b, i) => m.set(String.fromCodePoint(cs[i]), b));
  return (s) => Buffer.from([...s].map((ch) => m.get(ch) ?? 63)).toString('utf8');
}

export async function wllamaPeer({ log, notes, versions, threadCounts = [1, 2], types = ['F32', 'F16'], noPermute = false }) {
  const { chromium } = createRequire(path.join(ROOT, 'package.json'))('playwright-core');
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ew-gguf-'));
  const server = await serve([['/wllama/', WLLAMA], ['/models/', tmp], ['/', path.join(ROOT, 'bench/browser')]]);
  const base = `http://127.0.0.1:${server.address().port}`;
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
  const pkg = JSON.parse(fs.readFileSync(path.join(WLLAMA, 'package.json'), 'utf8'));
  versions.wllama = pkg.version; versions.chromium = browser.version();
  const pages = [];
  let n = 0;
  const newPage = async () => {
    const page = await browser.newPage();
    page.on('console', (m) => { if (m.type() === 'error') log(`  [wllama page] ${m.text()}`); });
    await page.goto(`${base}/wllama.html`);
    await page.waitForFunction(() => window.benchReady === true, null, { timeout: 60000 });
    pages.push(page);
    return page;
  };
  const probe = await newPage();
  const isolated = await probe.evaluate(() => window.bench.isolated()), hw = await probe.evaluate(() => window.bench.hw());
  notes.push(`wllama ${pkg.version} in headless Chromium ${browser.version()} (playwright-core), page cross-origin isolated: ${isolated}, navigator.hardwareConcurrency ${hw}.`);
  await probe.close(); pages.pop();

  async function setup(key, dir, c, w, plant, prompt, GEN) {
    const tok = JSON.parse(fs.readFileSync(path.join(dir, 'tokenizer.json'), 'utf8'));
    const dec = byteDecoder(), textToId = new Map();
    for (const [t, i] of Object.entries(tok.model.vocab)) textToId.set(dec(t), i);
    for (let i = 0; i < c.vocab_size; i++) if (!(i in tok.model.vocab) && i !== c.eos_token_id) textToId.set(`<pad_${i}>`, i);
    const idToText = []; for (const [t, i] of Object.entries(tok.model.vocab)) idToText[i] = dec(t);
    const promptText = prompt.map((i) => idToText[i]).join('');
    const out = [];
    for (const type of types) {
      const file = path.join(tmp, `${key}-${type}.gguf`), t0 = performance.now();
      const g = writeGguf(file, c, w, tok, { type, name: key, noPermute });
      notes.push(`${key}: ${path.basename(file)} written by gguf.mjs (${(g.bytes / 1e6).toFixed(0)} MB, ${g.tensors} tensors, arch ${g.arch}) in ${((performance.now() - t0) / 1000).toFixed(1)} s.`);
      for (const threads of threadCounts) {
        const impl = `wllama ${pkg.version} ${type} GGUF, ${threads} thread${threads > 1 ? 's' : ''} (Chromium)`;
        const page = await newPage(), id = `i${n++}`;
        // F32 weights: an F32 key/value cache too, so the logits check sees the weights' precision;
        // F16 weights: llama.cpp's default F16 cache.
        const params = { n_ctx: 256, n_batch: 256, n_threads: threads, n_gpu_layers: 0, seed: 1, log_level: 4,
                         ...(type === 'F32' ? { cache_type_k: 'f32', cache_type_v: 'f32' } : {}) };
        let info;
        try { info = await page.evaluate(([id, url, p]) => window.bench.load(id, url, p), [id, `${base}/models/${path.basename(file)}`, params]); }
        catch (err) { notes.push(`${impl}: did not load (${String(err.message || err).slice(0, 300)})`); log(notes.at(-1)); await page.close(); continue; }
        if (threads > 1 && !info.multithread) { notes.push(`${impl}: wllama did not start multi-threaded (isolated ${isolated}); not timed as 2 threads`); await page.close(); continue; }
        notes.push(`${impl}: loaded in ${(info.ms / 1000).toFixed(1)} s, getNumThreads ${info.threads}, multithread ${info.multithread}, params ${JSON.stringify(params)}.`);
        const run = async () => {
          const { r } = await page.evaluate(([id, p, k, np]) => window.bench.generate(id, p, k, np), [id, promptText, GEN, N_PROBS]);
          const t = r.timings, ch = r.choices[0];
          if (t.prompt_n !== prompt.length) throw new Error(`${impl}: prompt_n ${t.prompt_n}, not ${prompt.length} (a cached prompt?)`);
          return { prefillMs: t.prompt_ms, decodeMs: t.predicted_ms, decodeTokens: Math.max(1, t.predicted_n - 1), predicted: t.predicted_n, choice: ch };
        };
        // One step from each of several prompts: the first-step argmax, which, unlike the 64 ids of
        // one prompt (these random models repeat one token), differs from prompt to prompt.
        const probe = async (text) => {
          const { r } = await page.evaluate(([id, p, np]) => window.bench.generate(id, p, 1, np), [id, text, N_PROBS]);
          return { id: r.choices[0].logprobs?.content?.[0]?.id ?? -1, prompt_n: r.timings.prompt_n };
        };
        const first = await run();
        const lp = first.choice.logprobs;
        const ids = (lp?.content || []).map((t) => t.id);
        out.push({ impl, threads, f16: type === 'F16', first: { ids, logprobs: lp, predicted: first.predicted }, run, probe, textToId: (t) => textToId.get(t) ?? -1,
                   dispose: async () => { await page.evaluate((id) => window.bench.exit(id), id).catch(() => {}); await page.close(); } });
      }
    }
    return out;
  }
  return { setup, close: async () => { await browser.close(); server.close(); fs.rmSync(tmp, { recursive: true, force: true }); } };
}
