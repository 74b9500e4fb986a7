// checkpoint_dir.mjs — a checkpoint directory opened in our Engine the page's way: each file staged
// into the wasm heap (stageCheckpointFile) and filled in place from disk, 16 MiB at a time, then
// loadCheckpoint. Shared by decoders.mjs and generate_profile.mjs.
// Returns {e, info, loadMs}: the Engine, loadCheckpoint's reply, the milliseconds it all took.
import fs from 'node:fs';
import path from 'node:path';

export function openCheckpoint(M, dir) {
  const e = new M.Engine(), t0 = performance.now();
  for (const f of fs.readdirSync(dir)) {
    const p = path.join(dir, f), size = fs.statSync(p).size;
    if (!e.stageCheckpointFile(f, size)) continue;
    const fd = fs.openSync(p, 'r');
    for (let off = 0; off < size;) off += fs.readSync(fd, e.stagedView(f), off, Math.min(1 << 24, size - off), off);
    fs.closeSync(fd);
  }
  const info = JSON.parse(e.loadCheckpoint(path.basename(dir)));
  if (!info.ok) throw new Error(`loadCheckpoint ${dir}: ${info.error}`);
  return { e, info, loadMs: performance.now() - t0 };
}
