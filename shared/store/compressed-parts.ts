import { gunzipSync, gzipSync } from 'node:zlib';

/**
 * A JSON value too large for one item (400 KB), stored as gzip-compressed JSON split in parts of
 * at most PART_BYTES, each part one item. Used for values that grow with an org's fleet.
 */

/** Leaves room under the 400 KB item limit for the keys and the other attributes. */
export const PART_BYTES = 300_000;

export function compressedParts(value: unknown): Uint8Array[] {
  const bytes = gzipSync(JSON.stringify(value));
  const parts: Uint8Array[] = [];
  for (let offset = 0; offset < bytes.length; offset += PART_BYTES) {
    parts.push(bytes.subarray(offset, offset + PART_BYTES));
  }
  return parts;
}

/** The value of `compressedParts`, from its parts in order. */
export function fromCompressedParts(parts: readonly Uint8Array[]): unknown {
  return JSON.parse(gunzipSync(Buffer.concat(parts)).toString('utf8'));
}
