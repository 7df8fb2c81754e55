/**
 * The memory residual copies are taken from (residual-arena.ts): arrays that never overlap while a
 * computation runs, the same memory again for the next computation given the same arena, and
 * plans that do not change when a later computation reuses it.
 */
import { describe, expect, it } from 'vitest';
import { generateCommitments } from '../../../local/demo/synthetic-commitments';
import { generateFleet } from '../../../local/demo/synthetic-fleet';
import { loadCatalog } from '../../../shared/domain/catalog/catalog';
import { computePlans, type EngineInput, type ProviderPlans } from '../../../shared/domain/engine';
import { residualArena } from '../../../shared/domain/engine/groups/residual-arena';

const sameMemory = (a: Float64Array, b: Float64Array) =>
  a.buffer === b.buffer && a.byteOffset === b.byteOffset && a.length === b.length;

const overlaps = (a: Float64Array, b: Float64Array) =>
  a.buffer === b.buffer &&
  a.byteOffset < b.byteOffset + b.byteLength &&
  b.byteOffset < a.byteOffset + a.byteLength;

describe('residual arena', () => {
  it('hands out arrays of the length asked for that never overlap until it is reset', () => {
    // Prepare
    const arena = residualArena();

    // Act: enough 720-hour arrays to fill more than one block.
    const taken = Array.from({ length: 400 }, () => arena.take(720));

    // Assess
    expect(taken.every((array) => array.length === 720)).toBe(true);
    const buffers = [...new Set(taken.map((array) => array.buffer))];
    const inOrder = [...taken].sort(
      (a, b) => buffers.indexOf(a.buffer) - buffers.indexOf(b.buffer) || a.byteOffset - b.byteOffset,
    );
    // Sorted by place in memory, each array must end before the next begins.
    expect(inOrder.some((array, k) => k > 0 && overlaps(inOrder[k - 1] as Float64Array, array))).toBe(false);
    expect(buffers.length).toBeGreaterThan(1);
  });

  it('hands out the same memory again after a reset, without allocating more', () => {
    // Prepare
    const arena = residualArena();
    const first = Array.from({ length: 400 }, () => arena.take(720));
    const bytes = arena.bytes;

    // Act
    arena.reset();
    const second = Array.from({ length: 400 }, () => arena.take(720));

    // Assess
    expect(second.every((array, k) => sameMemory(array, first[k] as Float64Array))).toBe(true);
    expect(arena.bytes).toBe(bytes);
  });

  it('gives an array longer than a block a block of its own', () => {
    // Prepare
    const arena = residualArena();
    const small = arena.take(10);

    // Act
    const large = arena.take(1 << 19);

    // Assess
    expect(large.length).toBe(1 << 19);
    expect(large.buffer).not.toBe(small.buffer);
    expect(large.buffer.byteLength).toBe(8 * (1 << 19));
  });
});

describe('plans computed while a later computation reuses the memory', () => {
  const catalog = loadCatalog();
  const window = { start: '2026-06-01T00:00:00.000Z', hours: 240 };

  function input(seed: string): EngineInput {
    const streams = generateFleet({ seed, provider: 'aws', streams: 300, window, catalog });
    return {
      orgId: '5b0c8c3e-7f41-4d6a-9a57-2f1e8d3c6b90',
      provider: 'aws',
      window,
      streams,
      // Commitments covering the fleet: the residual copies come from the arena.
      commitments: generateCommitments({ seed, provider: 'aws', streams, window, catalog, count: 5 }),
      offers: catalog.offers('aws'),
      planSeed: seed,
      createdAt: '2026-07-01T00:00:00.000Z',
    };
  }

  /** Everything a computation returns, the resource matches built from their rows. */
  const snapshot = (plans: ProviderPlans) =>
    JSON.stringify({
      ...plans,
      plans: plans.plans.map((entry) => ({ ...entry, resourceMatches: [...entry.resourceMatches] })),
    });

  it('keep every figure and resource match, and a recomputation gives the same plans', () => {
    // Prepare: one arena for every computation, as the composition root passes it.
    const arena = residualArena();
    const first = computePlans(input('arena-first'), arena);
    const before = snapshot(first);
    expect(first.plans.some((entry) => entry.resourceMatches.size > 0)).toBe(true);
    expect(arena.bytes).toBeGreaterThan(0);

    // Act
    computePlans(input('arena-second'), arena);
    const held = arena.bytes;
    const again = computePlans(input('arena-first'), arena);

    // Assess: the same plans as with memory of their own, from memory already held.
    expect(snapshot(first)).toBe(before);
    expect(snapshot(again)).toBe(before);
    expect(snapshot(computePlans(input('arena-first')))).toBe(before);
    expect(arena.bytes).toBe(held);
  });
});
