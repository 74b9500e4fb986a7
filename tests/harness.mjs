// harness.mjs — what the Node-side test and measurement scripts share: the repository root,
// command-line options, loading the wasm module's Node flavor, and launching Debian's
// headless Chromium with the flags that work on these machines (../shared/TOOLCHAIN.md).
import { createRequire } from 'node:module';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import process from 'node:process';

export const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

// The value after `--name` on the command line, or `def`.
export function arg(name, def) {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : def;
}

// The Node flavor of the module (build/<preset>/node/*.js), instantiated from its .wasm file
// (Node's fetch cannot read a file path), with its stdout/stderr silenced.
export async function loadWasmModule(modPath) {
  const require = createRequire(import.meta.url);
  return require(modPath)({ wasmBinary: readFileSync(modPath.replace(/\.js$/, '.wasm')), print: () => {}, printErr: () => {} });
}

// Headless Chromium through playwright-core; `extraArgs` go after the standard flags.
export async function launchChromium(chromium, executablePath, extraArgs = []) {
  return chromium.launch({
    executablePath,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync', ...extraArgs],
  });
}

// The browser suites' checks: check(name, fn) runs one named check, prints "ok   name (ms)" or
// "FAIL name" with the first lines of its error, and counts; results() gives the counts.
export function checks(stackLines = 8) {
  const counts = { passed: 0, failed: 0 };
  async function check(name, fn) {
    const t0 = Date.now();
    try {
      await fn();
      counts.passed++;
      console.log(`ok   ${name} (${Date.now() - t0} ms)`);
    } catch (e) {
      counts.failed++;
      console.log(`FAIL ${name}\n     ${String(e && e.stack ? e.stack : e).split('\n').slice(0, stackLines).join('\n     ')}`);
    }
  }
  return { check, results: () => counts };
}

export function assert(cond, msg) {
  if (!cond) throw new Error(msg);
}

// Exits with status 2 (not a test failure: the suite cannot run) when a file it needs is missing.
export function requireFiles(suite, files) {
  for (const [what, p] of files)
    if (!existsSync(p)) {
      console.error(`${suite}: ${what} not found at ${p}`);
      process.exit(2);
    }
}

// The browser suites' mode: EW_ISOLATED=1 in the environment (or --isolated on the command line)
// serves the site cross-origin isolated (COOP/COEP, scripts/serve.mjs), so the page runs the
// threaded build; by default it is served as a plain static host serves it (one thread).
// Suites pass `serverOptions` to startServer and run checkBuildMode once.
export const isolatedMode = process.env.EW_ISOLATED === '1' || process.argv.includes('--isolated');
export const serverOptions = { isolated: isolatedMode };

// Prints why a check is skipped in this mode (never silent); returns true when it is skipped.
export function skipInMode(when, name, reason) {
  if (when !== isolatedMode) return false;
  console.log(`skip ${name} — ${isolatedMode ? 'isolated' : 'not isolated'}: ${reason}`);
  return true;
}

// One check per suite run that the mode is real: the page at `url` (the site's index.html) is
// cross-origin isolated exactly when the suite is, and its readout names the threaded build
// (more than one thread) when isolated, a build without threads otherwise.
export async function checkBuildMode(check, browser, url) {
  const mode = isolatedMode ? 'isolated' : 'not isolated';
  await check(`${mode}: crossOriginIsolated is ${isolatedMode}, the page runs the ${isolatedMode ? 'threaded' : 'one-thread'} build`, async () => {
    const ctx = await browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 800 }, serviceWorkers: 'block' });
    try {
      const page = await ctx.newPage();
      await page.goto(url);
      await page.waitForFunction(() => window.encoderWalkthrough, null, { timeout: 20000 });
      await page.evaluate(() => window.encoderWalkthrough.ready);
      const coi = await page.evaluate(() => window.crossOriginIsolated);
      assert(coi === isolatedMode, `crossOriginIsolated is ${coi}, the suite runs ${mode}`);
      await page.waitForFunction(() => /build/.test(document.getElementById('perf').textContent), null, { timeout: 20000 });
      const text = await page.evaluate(() => document.getElementById('perf').textContent);
      const m = /on (\d+) threads/.exec(text);
      if (isolatedMode) assert(m && Number(m[1]) > 1, `readout "${text}" names no thread count > 1`);
      else assert(!m, `readout "${text}" names threads though the page is not isolated`);
      console.log(`     build readout: ${text.trim()}`);
    } finally {
      await ctx.close();
    }
  });
}

// The page's Worker's wasm memory ({wasmBytes, heapInUse}), asked of the Worker itself through its
// 'memory' action and answered there (the measurement scripts: measure-checkpoint.mjs, measure-long-text.mjs).
export async function workerMemory(page) {
  return page.workers()[0].evaluate(() => new Promise((resolve) => {
    const orig = self.postMessage;
    self.postMessage = (m, t) => {
      if (m && m.id === -7) {
        self.postMessage = orig;
        resolve(m.result);
      } else orig.call(self, m, t);
    };
    self.onmessage({ data: { id: -7, action: 'memory' } });
  }));
}
