// threads-worker.mjs — the timed part of bench/browser/threads.mjs, in a module Worker as the
// page's engine runs (there a pool waiting for its threads blocks with Atomics.wait; on the
// page's main thread Emscripten would spin instead). Message in: {model, rounds}; out:
// {hc, counts, times: {n: [ms…]}, same} or {error}.
self.onmessage = async ({ data: { model, rounds } }) => {
  try {
    const { default: factory } = await import('/dist/encoder_walkthrough_relaxed_mt.js');
    const M = await factory({ locateFile: (p) => '/dist/' + p, print: () => {}, printErr: () => {} });
    const hc = navigator.hardwareConcurrency || 1;
    const counts = [...new Set([1, 2, Math.min(hc, 4)])];
    const engine = new M.Engine();
    const meta = JSON.parse(engine.run(model, '{}'));
    if (!meta.ok) throw new Error(meta.error);
    const last = meta.steps.length - 1;
    const outputs = {}, times = Object.fromEntries(counts.map((n) => [n, []]));
    for (const n of counts) { // warm-up, and each count's output
      M.setThreads(n);
      engine.rerun();
      outputs[n] = engine.stepData(last).slice();
    }
    for (let r = 0; r < rounds; r++)
      for (const n of (r % 2 ? [...counts].reverse() : counts)) {
        M.setThreads(n);
        const t0 = performance.now();
        engine.rerun();
        times[n].push(performance.now() - t0);
      }
    const same = counts.every((n) => outputs[n].length === outputs[1].length && outputs[n].every((v, i) => Object.is(v, outputs[1][i])));
    postMessage({ hc, counts, times, same });
  } catch (e) {
    postMessage({ error: String((e && e.stack) || e) });
  }
};
