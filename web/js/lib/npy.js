// npy.js — a float32 tensor as a NumPy .npy file (format version 1.0: magic, header dict
// padded so the data starts on a 64-byte boundary, then little-endian float32 data, C order).
// numpy.load reads it; -inf (a masked entry) stays -inf.

export function npyBytes(data, shape) {
  const dims = shape.length === 1 ? `(${shape[0]},)` : `(${shape.join(', ')})`;
  let header = `{'descr': '<f4', 'fortran_order': False, 'shape': ${dims}, }`;
  const pre = 10; // magic (6) + version (2) + header length (2)
  const total = Math.ceil((pre + header.length + 1) / 64) * 64;
  header = header + ' '.repeat(total - pre - header.length - 1) + '\n';
  const out = new Uint8Array(total + data.length * 4);
  out.set([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0]); // \x93NUMPY v1.0
  out[8] = header.length & 255;
  out[9] = header.length >> 8;
  for (let i = 0; i < header.length; i++) out[pre + i] = header.charCodeAt(i);
  const dv = new DataView(out.buffer, total);
  for (let i = 0; i < data.length; i++) dv.setFloat32(i * 4, data[i], true);
  return out;
}
