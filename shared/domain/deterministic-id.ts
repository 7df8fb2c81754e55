import { createHash, type Hash } from 'node:crypto';

/**
 * Name-based UUIDs (RFC 9562 version 5: SHA-1 of a namespace and a name). The same parts always
 * give the same id, so catalog offers keep their ids across loads and a plan keeps its id, and its
 * line items theirs, until the inputs that define it change. Hashing is a pure function of its
 * input, so the domain may use it.
 */
const SERVICE_NAMESPACE = Buffer.from('6f1c2a9e4b7d4c1e9a3f5b8d2e7c4a10', 'hex');

/** Parts are joined by the unit separator, which no part of an id contains. */
const PART_SEPARATOR = '\u001f';

/** The UUID text of a SHA-1 digest's first 16 bytes, stamped as version 5 with the RFC 9562 variant. */
function uuidText(digest: Buffer): string {
  digest[6] = ((digest[6] as number) & 0x0f) | 0x50;
  digest[8] = ((digest[8] as number) & 0x3f) | 0x80;
  const hex = digest.toString('hex', 0, 16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

function namespacedHash(): Hash {
  return createHash('sha1').update(SERVICE_NAMESPACE);
}

export function deterministicUuid(...parts: readonly string[]): string {
  return uuidText(namespacedHash().update(parts.join(PART_SEPARATOR), 'utf8').digest());
}

/**
 * `(last) => deterministicUuid(...leading, last)`, for naming many things after the same leading
 * parts: those are hashed once, and each id continues from a copy of that hash state.
 */
export function deterministicUuids(...leading: readonly string[]): (last: string) => string {
  if (leading.length === 0) return (last) => deterministicUuid(last);
  const afterLeading = namespacedHash().update(`${leading.join(PART_SEPARATOR)}${PART_SEPARATOR}`, 'utf8');
  return (last) => uuidText(afterLeading.copy().update(last, 'utf8').digest());
}
