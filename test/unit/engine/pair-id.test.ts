import { describe, expect, it } from 'vitest';
import { pairUuids } from '../../../shared/domain/engine/matches/pair-id';

describe('pairUuids', () => {
  it('derives a stable version-8 UUID from two UUIDs, different for different pairs', () => {
    // Prepare
    const pairUuid = pairUuids();
    const line = '9c857429-f57f-54aa-b327-d4ce7141a8e4';
    const resources = ['3f2504e0-4f89-51d3-9a0c-0305e82c3301', '3f2504e0-4f89-51d3-9a0c-0305e82c3302'];

    // Act
    const ids = resources.map((resource) => pairUuid(line, resource));

    // Assess
    expect(ids[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(ids[0]).not.toBe(ids[1]);
    expect(pairUuids()(line, resources[0] as string)).toBe(ids[0]);
    // XOR of the parts: the first byte is 0x9c ^ 0x3f = 0xa3.
    expect(ids[0]?.slice(0, 2)).toBe('a3');
  });
});
