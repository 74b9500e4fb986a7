// worker-trained.js — the Worker's actions for trained models (issue 10), kept apart from the
// forward-pass protocol of worker.js: training in chunks of steps (progress after every chunk;
// between chunks the Worker reads its messages, so pause, resume and stop act within one
// chunk, ~0.1 s), the weights a reader loads or trains (kept by the engine, run with
// options.user_weights), their export, and the list of tasks.
//   {action:'tasks'} → [{name, description, classifier, labels}]
//   {action:'trainStart', options, evalEvery, evalN, finalEvalN, stopAt} → progress messages
//       {steps, total, loss, accuracy?, stepsPerSec, ms, sample?}; result {steps, loss,
//       accuracy, ms, stopped, example, task}; the trained weights become the engine's user weights
//   {action:'trainControl', command:'pause'|'resume'|'stop'} → {state}
//   {action:'setWeights', buffer} → {ok, config, vocab, labels} | {ok:false, error}
//   {action:'exportWeights'} → {buffer} (safetensors)

const CHUNK_MS = 100; // a chunk of optimizer steps takes about this long

const control = { running: false, paused: false, stop: false };
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const parse = (s) => {
  const r = JSON.parse(s);
  if (!r.ok) throw new Error(r.error);
  return r;
};

async function trainStart(msg, M, engine) {
  if (control.running) throw new Error('a training run is already going: stop it first');
  Object.assign(control, { running: true, paused: false, stop: false });
  const session = new M.TrainSession();
  try {
    return await trainLoop(msg, M, engine(), session);
  } finally {
    session.delete();
    control.running = false;
  }
}

async function trainLoop(msg, M, engine, session) {
  const o = msg.options || {};
  const info = parse(session.start(JSON.stringify(o)));
  const total = o.steps, evalEvery = msg.evalEvery || Math.max(50, Math.round(total / 15));
  const evalN = msg.evalN || 100;
  let done = 0, chunk = 1, ms = 0, loss = NaN, accuracy = null, nextEval = evalEvery, lastSample = -Infinity;
  while (done < total && !control.stop) {
    if (control.paused) {
      await sleep(40);
      continue;
    }
    const t0 = performance.now();
    const r = parse(session.steps(Math.min(chunk, total - done)));
    const dt = performance.now() - t0;
    ms += dt;
    done = r.steps;
    loss = r.loss;
    chunk = Math.max(1, Math.min(1000, Math.round((chunk * CHUNK_MS) / Math.max(dt, 1))));
    const p = { steps: done, total, loss, stepsPerSec: done / (ms / 1000), ms };
    if (done >= nextEval || done >= total) {
      nextEval += evalEvery;
      accuracy = parse(session.evaluate(evalN)).accuracy;
      p.accuracy = accuracy;
      p.evalN = evalN;
      if (msg.stopAt && accuracy >= msg.stopAt) control.stop = true;
    }
    // The fixed example's attention, a few times a second (one greedy decoding: ~ms).
    if (p.accuracy !== undefined || performance.now() - lastSample > 300) {
      p.sample = parse(session.sample(info.example));
      lastSample = performance.now();
    }
    postMessage({ id: msg.id, progress: p });
    await sleep(0); // let pause/stop messages in
  }
  const finalN = msg.finalEvalN || 0;
  if (finalN) accuracy = parse(session.evaluate(finalN)).accuracy;
  const bytes = session.safetensors();
  const set = JSON.parse(engine.setUserWeights(bytes.slice()));
  if (!set.ok) throw new Error(set.error);
  return { steps: done, total, loss, accuracy, evalN: finalN || evalN, ms, stopped: done < total,
    example: info.example, task: o.task, classifier: info.classifier, config: set.config };
}

function trainControl(msg) {
  if (!control.running) return { state: 'idle' };
  if (msg.command === 'pause') control.paused = true;
  else if (msg.command === 'resume') control.paused = false;
  else if (msg.command === 'stop') control.stop = true;
  else throw new Error(`unknown training command "${msg.command}"`);
  return { state: control.stop ? 'stopping' : control.paused ? 'paused' : 'running' };
}

function setWeights(msg, M, engine) {
  if (!(msg.buffer instanceof ArrayBuffer)) throw new Error('setWeights needs an ArrayBuffer');
  return JSON.parse(engine().setUserWeights(new Uint8Array(msg.buffer)));
}

function exportWeights(msg, M, engine) {
  const v = engine().userWeights();
  if (!v.length) throw new Error('there are no trained or loaded weights to export yet');
  const buffer = v.slice().buffer;
  return { buffer, transfer: [buffer] };
}

export const TRAINED_ACTIONS = {
  tasks: (msg, M) => JSON.parse(M.tasksJson()),
  trainStart,
  trainControl,
  setWeights,
  exportWeights,
};
