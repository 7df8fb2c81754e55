import { generateKeyPairSync, sign, verify } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { derToJoseSignature } from '../../../../shared/auth/signers/der-signature';

function der(r: number[], s: number[]): Uint8Array {
  const content = [0x02, r.length, ...r, 0x02, s.length, ...s];
  return new Uint8Array([0x30, content.length, ...content]);
}

describe('derToJoseSignature', () => {
  it('answers the r || s that verifies as an ieee-p1363 signature, for every DER length seen', () => {
    // Prepare
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const message = Buffer.from('header.payload');
    const lengths = new Set<number>();

    // Act
    const verified = Array.from({ length: 300 }, () => {
      const signature = sign('sha256', message, { key: privateKey, dsaEncoding: 'der' });
      lengths.add(signature.length);
      const jose = derToJoseSignature(signature);
      return (
        jose.length === 64 && verify('sha256', message, { key: publicKey, dsaEncoding: 'ieee-p1363' }, jose)
      );
    });

    // Assess
    expect(verified.every(Boolean)).toBe(true);
    expect(lengths.size).toBeGreaterThan(1);
  });

  it('left-pads a short r and drops the sign byte of a long s', () => {
    // Prepare
    const r = Array.from({ length: 31 }, (_, i) => i + 1);
    const s = [0x00, 0x80, ...Array.from({ length: 31 }, () => 0x11)];

    // Act
    const jose = derToJoseSignature(der(r, s));

    // Assess
    expect([...jose.subarray(0, 32)]).toEqual([0, ...r]);
    expect([...jose.subarray(32)]).toEqual([0x80, ...Array.from({ length: 31 }, () => 0x11)]);
  });

  it('refuses what is not one SEQUENCE of two non-negative INTEGERs of at most 32 bytes', () => {
    // Prepare
    const thirtyTwo = Array.from({ length: 32 }, () => 0x01);
    const malformed = [
      new Uint8Array([0x31, 0x06, 0x02, 0x01, 0x01, 0x02, 0x01, 0x01]),
      new Uint8Array([...der([1], [1]), 0x00]),
      der([0x80, ...thirtyTwo.slice(1)], [1]),
      der([0x01, ...thirtyTwo], [1]),
      der([1], []),
      der([1], [1]).subarray(0, 5),
    ];

    // Act
    const outcomes = malformed.map((signature) => {
      try {
        derToJoseSignature(signature);
        return 'accepted';
      } catch (error) {
        return error instanceof RangeError ? 'refused' : 'failed';
      }
    });

    // Assess
    expect(outcomes).toEqual(Array.from({ length: malformed.length }, () => 'refused'));
  });
});
