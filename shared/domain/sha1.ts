/**
 * SHA-1 (FIPS 180-4) of short messages, for name-based UUIDs. The same digest as node:crypto's,
 * computed in place: an engine run names tens of thousands of resources, and for messages this
 * short creating a native hash object costs more than hashing.
 */

const encoder = new TextEncoder();
const schedule = new Int32Array(80);
const digest = new Int32Array(5);
let message = new Uint8Array(256);
// message.subarray(prefix length), kept: a view per call would cost as much as the hashing.
let tail = message;

/**
 * Digest words [h0..h4] of `prefix` followed by the UTF-8 bytes of `text`. The array returned is
 * reused by the next call: read it before hashing again.
 */
export function sha1(prefix: Uint8Array, text: string): Int32Array {
  // Room for the bytes (at most 3 per UTF-16 unit), the 0x80 marker and the 8-byte length.
  const room = prefix.length + 3 * text.length + 72;
  if (message.length < room) message = new Uint8Array(2 * room);
  if (tail.buffer !== message.buffer || tail.byteOffset !== prefix.length)
    tail = message.subarray(prefix.length);
  message.set(prefix, 0);
  const length = prefix.length + encoder.encodeInto(text, tail).written;
  const padded = (((length + 8) >> 6) + 1) << 6;
  message.fill(0, length, padded);
  message[length] = 0x80;
  // Bit length, big-endian; messages here are far below 2^29 bytes.
  const bits = length * 8;
  message[padded - 4] = bits >>> 24;
  message[padded - 3] = (bits >>> 16) & 0xff;
  message[padded - 2] = (bits >>> 8) & 0xff;
  message[padded - 1] = bits & 0xff;

  let h0 = 0x67452301;
  let h1 = 0xefcdab89 | 0;
  let h2 = 0x98badcfe | 0;
  let h3 = 0x10325476;
  let h4 = 0xc3d2e1f0 | 0;
  const w = schedule;
  for (let block = 0; block < padded; block += 64) {
    for (let i = 0; i < 16; i++) {
      const at = block + 4 * i;
      w[i] =
        ((message[at] as number) << 24) |
        ((message[at + 1] as number) << 16) |
        ((message[at + 2] as number) << 8) |
        (message[at + 3] as number);
    }
    for (let i = 16; i < 80; i++) {
      const x = (w[i - 3] as number) ^ (w[i - 8] as number) ^ (w[i - 14] as number) ^ (w[i - 16] as number);
      w[i] = (x << 1) | (x >>> 31);
    }
    let a = h0;
    let b = h1;
    let c = h2;
    let d = h3;
    let e = h4;
    for (let i = 0; i < 80; i++) {
      let f: number;
      let k: number;
      if (i < 20) {
        f = (b & c) | (~b & d);
        k = 0x5a827999;
      } else if (i < 40) {
        f = b ^ c ^ d;
        k = 0x6ed9eba1;
      } else if (i < 60) {
        f = (b & c) | (b & d) | (c & d);
        k = 0x8f1bbcdc;
      } else {
        f = b ^ c ^ d;
        k = 0xca62c1d6;
      }
      const next = (((a << 5) | (a >>> 27)) + f + e + k + (w[i] as number)) | 0;
      e = d;
      d = c;
      c = (b << 30) | (b >>> 2);
      b = a;
      a = next;
    }
    h0 = (h0 + a) | 0;
    h1 = (h1 + b) | 0;
    h2 = (h2 + c) | 0;
    h3 = (h3 + d) | 0;
    h4 = (h4 + e) | 0;
  }
  digest[0] = h0;
  digest[1] = h1;
  digest[2] = h2;
  digest[3] = h3;
  digest[4] = h4;
  return digest;
}
