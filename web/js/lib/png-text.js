// png-text.js — adds a tEXt chunk (keyword + Latin-1 text) to a PNG right after its IHDR, so an
// exported image carries the settings it came from (`pngcheck -t`, exiftool, PIL's .text show it).

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

function crc32(bytes) {
  let c = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) c = CRC_TABLE[(c ^ bytes[i]) & 255] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

// Non-Latin-1 characters (a sentence in another script) become \uXXXX escapes: tEXt is Latin-1.
export function pngWithText(png, keyword, text) {
  const latin = text.replace(/[^\x20-\x7e]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
  const body = new Uint8Array(4 + keyword.length + 1 + latin.length);
  body.set([0x74, 0x45, 0x58, 0x74]); // "tEXt"
  for (let i = 0; i < keyword.length; i++) body[4 + i] = keyword.charCodeAt(i);
  for (let i = 0; i < latin.length; i++) body[5 + keyword.length + i] = latin.charCodeAt(i);
  const chunk = new Uint8Array(body.length + 8);
  const dv = new DataView(chunk.buffer);
  dv.setUint32(0, body.length - 4);
  chunk.set(body, 4);
  dv.setUint32(4 + body.length, crc32(body));
  const at = 8 + 25; // signature + IHDR (length 4, type 4, data 13, crc 4)
  const out = new Uint8Array(png.length + chunk.length);
  out.set(png.subarray(0, at));
  out.set(chunk, at);
  out.set(png.subarray(at), at + chunk.length);
  return out;
}
