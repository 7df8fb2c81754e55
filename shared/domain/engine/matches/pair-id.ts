/**
 * Ids of pairs of things that already have name-based UUIDs (a line item and a resource): the XOR
 * of the two, stamped as an RFC 9562 version-8 (custom) UUID. As stable as its parts and as
 * unlikely to collide as two random UUIDs, without a SHA-1 per pair: a plan has one resource match
 * per (line item, resource), tens of thousands of them. Each part is parsed once.
 */
const HEX_CODES = Array.from('0123456789abcdef', (digit) => digit.charCodeAt(0));
const DASH = 45;

/** The value of a hex digit's character code (0-9, a-f, A-F). */
function nibble(code: number): number {
  return code <= 57 ? code - 48 : (code | 32) - 87;
}

/** The 16 bytes of a UUID's text. */
export function uuidBytes(uuid: string): Uint8Array {
  const bytes = new Uint8Array(16);
  let byte = 0;
  for (let i = 0; i < uuid.length && byte < 16; i++) {
    if (uuid.charCodeAt(i) === 45) continue;
    bytes[byte++] = (nibble(uuid.charCodeAt(i)) << 4) | nibble(uuid.charCodeAt(++i));
  }
  return bytes;
}

/** The pair UUID of two UUIDs given as bytes (uuidBytes). */
export function pairUuidWriter(): (first: Uint8Array, second: Uint8Array) => string {
  // The text is written as ASCII codes and read back in one go: far fewer strings than appending.
  const text = Buffer.alloc(36);
  return (a, b) => {
    let at = 0;
    for (let i = 0; i < 16; i++) {
      let byte = (a[i] as number) ^ (b[i] as number);
      if (i === 6) byte = (byte & 0x0f) | 0x80;
      else if (i === 8) byte = (byte & 0x3f) | 0x80;
      text[at++] = HEX_CODES[byte >> 4] as number;
      text[at++] = HEX_CODES[byte & 0x0f] as number;
      if (i === 3 || i === 5 || i === 7 || i === 9) text[at++] = DASH;
    }
    return text.toString('latin1');
  };
}

/** pairUuid(first, second) of UUID texts, remembering each part's bytes. */
export function pairUuids(): (first: string, second: string) => string {
  const parsed = new Map<string, Uint8Array>();
  const bytesOf = (uuid: string) => {
    let bytes = parsed.get(uuid);
    if (!bytes) {
      bytes = uuidBytes(uuid);
      parsed.set(uuid, bytes);
    }
    return bytes;
  };
  const pairUuid = pairUuidWriter();
  return (first, second) => pairUuid(bytesOf(first), bytesOf(second));
}
