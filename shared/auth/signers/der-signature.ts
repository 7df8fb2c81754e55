/**
 * ECDSA signatures come in two encodings: KMS (like OpenSSL) answers the ASN.1 DER
 * `SEQUENCE { INTEGER r, INTEGER s }`, JWS (RFC 7518 §3.4) wants the fixed-size `r || s`.
 * DER integers are minimal and signed: a 32-byte P-256 value takes 31 bytes when it starts with
 * a zero byte (or fewer), and 33 when its top bit is set (a 0x00 is prepended). So the
 * signature is 70 to 72 bytes long (rarely shorter), and only parsing it finds r and s.
 */

/** The byte length of r and of s for P-256. */
const P256_COORDINATE_BYTES = 32;

const SEQUENCE_TAG = 0x30;
const INTEGER_TAG = 0x02;

/** Converts a DER ECDSA signature to JOSE's `r || s` (each left-padded to `size` bytes). */
export function derToJoseSignature(der: Uint8Array, size: number = P256_COORDINATE_BYTES): Uint8Array {
  let offset = 0;
  const byte = (): number => {
    const value = der[offset];
    if (value === undefined) throw new RangeError('DER signature is truncated');
    offset += 1;
    return value;
  };
  const length = (): number => {
    const first = byte();
    if (first < 0x80) return first;
    // Long form: only one length byte is possible for these sizes (the content is under 256 bytes).
    if (first !== 0x81) throw new RangeError('DER signature has an unsupported length form');
    const value = byte();
    if (value < 0x80) throw new RangeError('DER signature has a non-minimal length');
    return value;
  };
  const integer = (): Uint8Array => {
    if (byte() !== INTEGER_TAG) throw new RangeError('DER signature: expected an INTEGER');
    const bytes = length();
    if (bytes === 0 || offset + bytes > der.length) throw new RangeError('DER signature: bad INTEGER length');
    const value = der.subarray(offset, offset + bytes);
    offset += bytes;
    if (value[0] !== undefined && value[0] >= 0x80) throw new RangeError('DER signature: negative INTEGER');
    // Drop the sign byte(s); what is left must fit the coordinate size.
    let start = 0;
    while (start < value.length - 1 && value[start] === 0) start += 1;
    const magnitude = value.subarray(start);
    if (magnitude.length > size) throw new RangeError('DER signature: INTEGER longer than the curve order');
    return magnitude;
  };

  if (byte() !== SEQUENCE_TAG) throw new RangeError('DER signature: expected a SEQUENCE');
  const contentLength = length();
  if (offset + contentLength !== der.length) throw new RangeError('DER signature: SEQUENCE length mismatch');
  const r = integer();
  const s = integer();
  if (offset !== der.length) throw new RangeError('DER signature: trailing bytes');

  const jose = new Uint8Array(size * 2);
  jose.set(r, size - r.length);
  jose.set(s, size * 2 - s.length);
  return jose;
}
