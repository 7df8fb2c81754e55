import { describe, expect, it } from 'vitest';
import type { ApiKeyRepository } from '../../../../shared/app/ports';
import { withThrottledKeyUse } from '../../../../shared/store/caching/key-use-throttle';

/** The key repository port, recording the uses it is asked to record. */
function recordingKeys(fail = () => false) {
  const recorded: [string, string][] = [];
  const keys: ApiKeyRepository = {
    create: async () => undefined,
    get: async () => null,
    revoke: async () => {
      throw new Error('not used');
    },
    markUsed: async (keyId, at) => {
      if (fail()) throw new Error('write failed');
      recorded.push([keyId, at]);
    },
  };
  return { keys, recorded };
}

function manualClock() {
  let now = Date.parse('2026-07-01T00:00:00Z');
  return { now: () => new Date(now), advance: (ms: number) => (now += ms) };
}

describe('throttled key use records', () => {
  it('records a key’s use at most once a minute', async () => {
    // Prepare
    const clock = manualClock();
    const { keys, recorded } = recordingKeys();
    const throttled = withThrottledKeyUse(keys, clock);

    // Act
    await throttled.markUsed('k1', 'first');
    clock.advance(59_999);
    await throttled.markUsed('k1', 'within the minute');
    await throttled.markUsed('k2', 'another key');
    clock.advance(1);
    await throttled.markUsed('k1', 'a minute later');

    // Assess
    expect(recorded).toEqual([
      ['k1', 'first'],
      ['k2', 'another key'],
      ['k1', 'a minute later'],
    ]);
  });

  it('tries again on the next use when a record failed', async () => {
    // Prepare
    let failing = true;
    const { keys, recorded } = recordingKeys(() => failing);
    const throttled = withThrottledKeyUse(keys, manualClock());

    // Act
    await expect(throttled.markUsed('k1', 'failed')).rejects.toThrow('write failed');
    failing = false;
    await throttled.markUsed('k1', 'recorded');

    // Assess
    expect(recorded).toEqual([['k1', 'recorded']]);
  });

  it('passes reads of key records through, never from memory', async () => {
    // Prepare
    let reads = 0;
    const { keys } = recordingKeys();
    const counted: ApiKeyRepository = {
      ...keys,
      get: async () => {
        reads += 1;
        return null;
      },
    };
    const throttled = withThrottledKeyUse(counted, manualClock());

    // Act
    await throttled.get('k1');
    await throttled.get('k1');

    // Assess
    expect(reads).toBe(2);
  });
});
