import { sha1 } from './sha1';

/**
 * Name-based UUIDs (RFC 9562 version 5: SHA-1 of a namespace and a name). The same parts always
 * give the same id, so catalog offers keep their ids across loads and a plan keeps its id, and its
 * line items theirs, until the inputs that define it change.
 */
const SERVICE_NAMESPACE = Uint8Array.from(Buffer.from('6f1c2a9e4b7d4c1e9a3f5b8d2e7c4a10', 'hex'));

const HEX_CODES = Array.from('0123456789abcdef', (digit) => digit.charCodeAt(0));
// The text is written as ASCII codes and read back in one go.
const text = Buffer.alloc(36);

/** The UUID text of a SHA-1 digest (sha1's words), stamped as version 5. */
function uuidText(digest: Int32Array): string {
  let at = 0;
  for (let i = 0; i < 16; i++) {
    let byte = ((digest[i >> 2] as number) >>> (24 - 8 * (i & 3))) & 0xff;
    // Version 5 and the RFC 9562 variant.
    if (i === 6) byte = (byte & 0x0f) | 0x50;
    else if (i === 8) byte = (byte & 0x3f) | 0x80;
    text[at++] = HEX_CODES[byte >> 4] as number;
    text[at++] = HEX_CODES[byte & 0x0f] as number;
    if (i === 3 || i === 5 || i === 7 || i === 9) text[at++] = 45;
  }
  return text.toString('latin1');
}

export function deterministicUuid(...parts: readonly string[]): string {
  return uuidText(sha1(SERVICE_NAMESPACE, parts.join('\u001f')));
}

/**
 * `(last) => deterministicUuid(...leading, last)`, for naming many things after the same leading
 * parts: those are joined and encoded once, not once per id.
 */
export function deterministicUuids(...leading: readonly string[]): (last: string) => string {
  if (leading.length === 0) return (last) => deterministicUuid(last);
  const joined = new TextEncoder().encode(`${leading.join('\u001f')}\u001f`);
  const prefix = new Uint8Array(SERVICE_NAMESPACE.length + joined.length);
  prefix.set(SERVICE_NAMESPACE, 0);
  prefix.set(joined, SERVICE_NAMESPACE.length);
  return (last) => uuidText(sha1(prefix, last));
}
