import { createHash } from 'node:crypto';

/**
 * Name-based UUIDs (RFC 9562 version 5: SHA-1 of a namespace and a name). The same parts always
 * give the same id, so catalog offers keep their ids across loads and a plan keeps its id, and its
 * line items theirs, until the inputs that define it change.
 */
const SERVICE_NAMESPACE = Buffer.from('6f1c2a9e4b7d4c1e9a3f5b8d2e7c4a10', 'hex');

export function deterministicUuid(...parts: readonly string[]): string {
  const digest = createHash('sha1').update(SERVICE_NAMESPACE).update(parts.join('\u001f'), 'utf8').digest();
  const bytes = digest.subarray(0, 16);
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x50;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
