// move-tables.mjs — after wasm/tools/split.mjs has split the module, moves the Unicode tables of
// core/text/unicode_data.cpp (~100 KB, 44 KiB gzip'd; only checkpoints' tokenizers read them)
// out of the primary module's data into the deferred module, as active data segments at the
// same addresses: instantiating the deferred module writes them into the shared memory before
// any deferred function runs. wasm-split moves code only; this moves the data that only
// deferred code reads.
//
// Safe only if no function left in the primary reads a table: no `i32.const` in the primary's
// code may hold a table's address, or a field offset of it (the whole module's code must hold
// them, else the check could not see anything and the tables stay). split.mjs then checks in
// Node that the deferred module writes every table's bytes where the code reads them.
// Any table not found, or referenced: the tables stay where they are (a message says why).
import { readFileSync } from 'node:fs';

// ---- the tables' bytes, as the compiler lays them out (wasm32: char32_t 4 bytes, alignment 4) --
const LAYOUTS = {
  Run: [['u32', 'u32', 'u8'], 12],    // {first, last, value} + 3 bytes of padding
  Seq: [['u32', 'u16', 'u8'], 8],     // {cp, offset, length} + 1
  Pair: [['u32', 'u32', 'u32'], 12],
  char32_t: [['u32'], 4],
};
export function unicodeTables(source) {
  const text = readFileSync(source, 'utf8');
  const out = {};
  for (const m of text.matchAll(/^const (Run|Seq|Pair|char32_t) (k\w+)\[\] = \{[^\n]*\n([\s\S]*?)\n\};/gm)) {
    const [fields, size] = LAYOUTS[m[1]];
    const nums = [...m[3].matchAll(/0x[0-9A-Fa-f]+|\b\d+\b/g)].map((x) => Number(x[0]));
    if (nums.length % fields.length) throw new Error(`move-tables: ${m[2]}: ${nums.length} numbers for ${fields.length} fields`);
    const bytes = Buffer.alloc((nums.length / fields.length) * size);
    for (let i = 0, at = 0; i < nums.length; i += fields.length, at += size) {
      let o = at;
      fields.forEach((f, k) => {
        if (f === 'u32') { bytes.writeUInt32LE(nums[i + k], o); o += 4; }
        else if (f === 'u16') { bytes.writeUInt16LE(nums[i + k], o); o += 2; }
        else { bytes.writeUInt8(nums[i + k], o); o += 1; }
      });
    }
    out[m[2]] = bytes;
  }
  return out;
}

// ---- wasm binary reading and writing --------------------------------------------------------------
function uleb(b, i) {
  let r = 0, s = 0, x;
  do { x = b[i++]; r += (x & 0x7f) * 2 ** s; s += 7; } while (x & 0x80);
  return [r, i];
}
function sleb(b, i) {
  let r = 0, s = 0, x;
  do { x = b[i++]; r += (x & 0x7f) * 2 ** s; s += 7; } while (x & 0x80);
  if (x & 0x40) r -= 2 ** s;
  return [r, i];
}
function encU(v) {
  const out = [];
  do { let x = v % 128; v = Math.floor(v / 128); if (v) x |= 0x80; out.push(x); } while (v);
  return out;
}
function encS(v) {
  const out = [];
  for (;;) {
    const x = v & 0x7f;
    v >>= 7;
    if ((v === 0 && !(x & 0x40)) || (v === -1 && (x & 0x40))) { out.push(x); return out; }
    out.push(x | 0x80);
  }
}
function sections(b) {
  const out = [];
  for (let i = 8; i < b.length;) {
    const id = b[i];
    const [size, start] = uleb(b, i + 1);
    out.push({ id, head: i, start, end: start + size });
    i = start + size;
  }
  return out;
}
// The module without its sections of this id (tests/browser/checkpoints.mjs --plant-no-tables).
export function withoutSection(b, id) {
  return Buffer.concat([b.subarray(0, 8), ...sections(b).filter((s) => s.id !== id).map((s) => b.subarray(s.head, s.end))]);
}
// Active segments of memory 0 with an i32.const offset: [{offset, bytes}].
function dataSegments(b, sec) {
  const segs = [];
  let [n, i] = uleb(b, sec.start);
  for (; n > 0; n--) {
    let flag;
    [flag, i] = uleb(b, i);
    if (flag !== 0 || b[i] !== 0x41) throw new Error(`move-tables: a data segment of kind ${flag} (only active ones at a constant offset are handled)`);
    let offset;
    [offset, i] = sleb(b, i + 1);
    if (b[i] !== 0x0b) throw new Error('move-tables: a data segment offset is not a single i32.const');
    let len;
    [len, i] = uleb(b, i + 1);
    segs.push({ offset, bytes: b.subarray(i, i + len) });
    i += len;
  }
  return segs;
}
function encodeDataSection(segs) {
  const body = [...encU(segs.length)];
  for (const s of segs) body.push(0, 0x41, ...encS(s.offset), 0x0b, ...encU(s.bytes.length), ...s.bytes);
  return Buffer.from([11, ...encU(body.length), ...body]);
}
// Every value an `i32.const` (0x41) could push in this code section (a superset: the byte 0x41
// inside another immediate counts too, which can only make the check stricter).
function constants(b, sec) {
  const out = new Set();
  for (let i = sec.start; i < sec.end; i++) if (b[i] === 0x41) out.add(sleb(b, i + 1)[0]);
  return out;
}

// Where each table lies in the module's memory image (null if absent or found twice).
function locate(b, tables) {
  const data = sections(b).find((s) => s.id === 11);
  const segs = dataSegments(b, data);
  const top = Math.max(...segs.map((s) => s.offset + s.bytes.length));
  const image = Buffer.alloc(top);
  for (const s of segs) image.set(s.bytes, s.offset);
  const where = {};
  for (const [name, bytes] of Object.entries(tables)) {
    const at = image.indexOf(bytes);
    where[name] = at >= 0 && image.indexOf(bytes, at + 1) < 0 ? { start: at, end: at + bytes.length } : null;
  }
  return { segs, where };
}

// whole: the module before splitting; primary/deferred: wasm-split's outputs (Buffers).
// Returns {primary, deferred, moved, note} (the inputs unchanged when nothing moved).
export function moveTables(whole, primary, deferred, tables) {
  const keep = (note) => ({ primary, deferred, moved: 0, note, where: {} });
  const { segs, where } = locate(primary, tables);
  const missing = Object.keys(where).filter((k) => !where[k]);
  if (missing.length) return keep(`${missing.join(', ')} not found once in the memory image`);
  const refs = (b) => {
    const c = constants(b, sections(b).find((s) => s.id === 10));
    return Object.entries(where).filter(([, r]) => [0, 4, 8].some((d) => c.has(r.start + d))).map(([k]) => k);
  };
  if (refs(whole).length === 0) return keep('the whole module\'s code names no table address (the check would see nothing)');
  const used = refs(primary);
  if (used.length) return keep(`the primary module's code names the address of ${used.join(', ')}`);
  // Cut the tables' ranges out of the primary's segments; the deferred module writes them.
  const ranges = Object.values(where).sort((a, b) => a.start - b.start);
  const kept = [], moved = [];
  for (const s of segs) {
    let pieces = [{ offset: s.offset, bytes: s.bytes }];
    for (const r of ranges) {
      pieces = pieces.flatMap((p) => {
        const a = p.offset, e = p.offset + p.bytes.length;
        if (r.end <= a || r.start >= e) return [p];
        const out = [];
        if (r.start > a) out.push({ offset: a, bytes: p.bytes.subarray(0, r.start - a) });
        if (r.end < e) out.push({ offset: r.end, bytes: p.bytes.subarray(r.end - a) });
        moved.push({ offset: Math.max(a, r.start), bytes: p.bytes.subarray(Math.max(a, r.start) - a, Math.min(e, r.end) - a) });
        return out;
      });
    }
    kept.push(...pieces);
  }
  const replace = (b, id, section) => {
    const secs = sections(b);
    const at = secs.find((s) => s.id === id);
    if (at) return Buffer.concat([b.subarray(0, at.head), section, b.subarray(at.end)]);
    // No such section yet (the deferred module has no data): after the code section.
    const code = secs.find((s) => s.id === 10);
    return Buffer.concat([b.subarray(0, code.end), section, b.subarray(code.end)]);
  };
  if (sections(deferred).some((s) => s.id === 11 || s.id === 12)) return keep('the deferred module has data of its own');
  let out = replace(primary, 11, encodeDataSection(kept));
  if (sections(out).some((s) => s.id === 12)) out = replace(out, 12, Buffer.from([12, ...encU(encU(kept.length).length), ...encU(kept.length)]));
  return {
    where,
    primary: out,
    deferred: replace(deferred, 11, encodeDataSection(moved)),
    moved: moved.reduce((a, s) => a + s.bytes.length, 0),
    note: `${Object.keys(where).length} tables`,
  };
}
