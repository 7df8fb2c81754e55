import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { compressedParts, fromCompressedParts, PART_BYTES } from '../../../shared/store/compressed-parts';

describe('compressed parts', () => {
  it('keeps a small value in one part and reads it back equal', () => {
    // Prepare
    const value = { id: 'p1', figures: [1.5, 0.1 + 0.2, 1e-17], nested: { name: 'Recommended', none: null } };

    // Act
    const parts = compressedParts(value);

    // Assess
    expect(parts).toHaveLength(1);
    expect(fromCompressedParts(parts)).toEqual(value);
  });

  it('splits a value that compresses to more than one part, each at most PART_BYTES', () => {
    // Prepare: random hex compresses to about half: 1.3 MB of it takes three parts.
    const value = { resource_ids: Array.from({ length: 40_000 }, () => randomBytes(16).toString('hex')) };

    // Act
    const parts = compressedParts(value);

    // Assess
    expect(parts.length).toBeGreaterThan(2);
    expect(parts.every((part) => part.length <= PART_BYTES)).toBe(true);
    expect(fromCompressedParts(parts)).toEqual(value);
  });
});
