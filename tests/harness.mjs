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
