/**
 * XXH32 (xxHash, 32 bits, seed 0): graph.cbor's checksum. Pure JavaScript, so the explorer checks a
 * snapshot in the browser the same way the server does; on 32-bit words it runs about as fast as
 * Node's native zlib.crc32 (prisma's 11 MB snapshot: ~3 ms), where a JavaScript CRC-32 took ~12 ms.
 * It catches any change within one 4-byte word and, like any 32-bit sum, misses other damage 1 time
 * in 2^32: a check against a flipped bit or a torn file, not against someone forging one.
 */

const P1 = 0x9e3779b1 | 0;
const P2 = 0x85ebca77 | 0;
const P3 = 0xc2b2ae3d | 0;
const P4 = 0x27d4eb2f | 0;
const P5 = 0x165667b1 | 0;

const LITTLE_ENDIAN = new Uint8Array(Uint32Array.of(1).buffer)[0] === 1;

const rotl = (x: number, r: number): number => (x << r) | (x >>> (32 - r));

/** The little-endian 32-bit words of `bytes` (a view when aligned on this machine, else a copy). */
function wordsOf(bytes: Uint8Array): Uint32Array {
  const n = bytes.length >>> 2;
  if (LITTLE_ENDIAN && (bytes.byteOffset & 3) === 0) return new Uint32Array(bytes.buffer, bytes.byteOffset, n);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const words = new Uint32Array(n);
  for (let i = 0; i < n; i++) words[i] = view.getUint32(4 * i, true);
  return words;
}

/** XXH32 of `bytes` with seed 0, as an unsigned 32-bit integer. */
export function xxh32(bytes: Uint8Array): number {
  const length = bytes.length;
  const words = wordsOf(bytes);
  const n = words.length;
  let i = 0;
  let h: number;
  if (length >= 16) {
    let v1 = (P1 + P2) | 0;
    let v2 = P2;
    let v3 = 0;
    let v4 = -P1 | 0;
    for (const last = n - 4; i <= last; i += 4) {
      v1 = Math.imul(rotl((v1 + Math.imul(words[i]!, P2)) | 0, 13), P1);
      v2 = Math.imul(rotl((v2 + Math.imul(words[i + 1]!, P2)) | 0, 13), P1);
      v3 = Math.imul(rotl((v3 + Math.imul(words[i + 2]!, P2)) | 0, 13), P1);
      v4 = Math.imul(rotl((v4 + Math.imul(words[i + 3]!, P2)) | 0, 13), P1);
    }
    h = (rotl(v1, 1) + rotl(v2, 7) + rotl(v3, 12) + rotl(v4, 18)) | 0;
  } else h = P5;
  h = (h + length) | 0;
  for (; i < n; i++) h = Math.imul(rotl((h + Math.imul(words[i]!, P3)) | 0, 17), P4);
  for (let k = 4 * n; k < length; k++) h = Math.imul(rotl((h + Math.imul(bytes[k]!, P5)) | 0, 11), P1);
  h = Math.imul(h ^ (h >>> 15), P2);
  h = Math.imul(h ^ (h >>> 13), P3);
  return (h ^ (h >>> 16)) >>> 0;
}
