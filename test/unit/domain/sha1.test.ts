import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { deterministicUuid } from '../../../shared/domain/deterministic-id';
import { sha1 } from '../../../shared/domain/sha1';

const hexOf = (words: Int32Array) =>
  [...words].map((word) => (word >>> 0).toString(16).padStart(8, '0')).join('');

describe('sha1', () => {
  it('gives the digest node:crypto gives, for any prefix and text (one block, several, any UTF-8)', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 40 }),
        fc.string({ unit: 'binary', maxLength: 300 }),
        (prefix, text) => {
          // Act
          const ours = hexOf(sha1(prefix, text));

          // Assess
          expect(ours).toBe(createHash('sha1').update(prefix).update(text, 'utf8').digest('hex'));
        },
      ),
    );
  });

  it('hashes the padding boundaries right (55, 56 and 64 bytes)', () => {
    for (const length of [0, 55, 56, 63, 64, 119, 120]) {
      // Act / Assess
      const text = 'x'.repeat(length);
      expect(hexOf(sha1(new Uint8Array(0), text))).toBe(createHash('sha1').update(text).digest('hex'));
    }
  });
});

describe('deterministicUuid on sha1', () => {
  it('keeps the ids it gave with node:crypto (RFC 9562 version 5 of the service namespace)', () => {
    // Prepare: the namespace and derivation deterministicUuid has always used.
    const namespace = Buffer.from('6f1c2a9e4b7d4c1e9a3f5b8d2e7c4a10', 'hex');
    const expected = (...parts: string[]) => {
      const bytes = createHash('sha1')
        .update(namespace)
        .update(parts.join('\u001f'), 'utf8')
        .digest()
        .subarray(0, 16);
      bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x50;
      bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
      const hex = bytes.toString('hex');
      return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
    };
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: 'grapheme', maxLength: 60 }), { minLength: 1, maxLength: 5 }),
        (parts) => {
          // Act / Assess
          expect(deterministicUuid(...parts)).toBe(expected(...parts));
        },
      ),
    );
  });
});
