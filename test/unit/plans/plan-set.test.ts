import { describe, expect, it } from 'vitest';
import { loadCatalog } from '../../../shared/domain/catalog/catalog';
import { computePlans } from '../../../shared/domain/engine';
import {
  defaultSegmentId,
  isCurrent,
  LOOKBACK_HOURS,
  lookbackWindow,
  type PlanSetState,
  planSeed,
  usageVersionOf,
} from '../../../shared/domain/plans/plan-set';
import type { UsageState } from '../../../shared/domain/usage/usage-state';
import { m5LargeStream } from '../../support/usage-streams';

function usageState(changes: Partial<UsageState> = {}): UsageState {
  return {
    orgId: 'o1',
    provider: 'aws',
    usageVersion: 4,
    importStartedAt: null,
    firstHour: '2026-05-01T00:00:00Z',
    lastHour: '2026-06-30T23:00:00Z',
    resources: 3,
    commitments: 0,
    updatedAt: '2026-07-01T00:00:00Z',
    ...changes,
  };
}

function planSet(usageVersion: number | null): PlanSetState {
  return {
    orgId: 'o1',
    provider: 'aws',
    computed:
      usageVersion === null
        ? null
        : {
            usageVersion,
            planIds: ['a', 'b', 'c'],
            recommendedPlanId: 'a',
            computedAt: '2026-07-01T00:00:00Z',
          },
    calculation: null,
  };
}

describe('plan sets', () => {
  it('looks back over the 720 hours ending with the last hour of stored usage', () => {
    // Act
    const window = lookbackWindow('2026-06-30T23:00:00Z', new Date('2026-09-01T12:34:56Z'));

    // Assess: 30 days of 24 hours, the last one starting at 23:00 on June 30.
    expect(window).toEqual({ start: '2026-06-01T00:00:00Z', hours: 720 });
    expect(LOOKBACK_HOURS).toBe(720);
  });

  it('looks back from the hour before now when there is no usage', () => {
    expect(lookbackWindow(null, new Date('2026-07-01T00:30:00Z'))).toEqual({
      start: '2026-06-01T00:00:00Z',
      hours: 720,
    });
  });

  it('counts a plan set current only when computed from the stored version with no import running', () => {
    expect(isCurrent(planSet(4), usageState())).toBe(true);
    expect(isCurrent(planSet(3), usageState())).toBe(false);
    expect(isCurrent(planSet(4), usageState({ importStartedAt: '2026-07-01T00:00:00Z' }))).toBe(false);
    expect(isCurrent(planSet(null), usageState())).toBe(false);
    expect(isCurrent(null, usageState())).toBe(false);
    // No usage state at all is version 0.
    expect(isCurrent(planSet(0), null)).toBe(true);
    expect(usageVersionOf(null)).toBe(0);
  });

  it('seeds plan ids with the org, provider and input version', () => {
    expect(planSeed('o1', 'gcp', 7)).toBe('o1/gcp/7');
    expect(planSeed('o1', 'gcp', 8)).not.toBe(planSeed('o1', 'gcp', 7));
  });

  it('names the default segment exactly as the engine’s purchase plan does', () => {
    // Prepare: enough steady usage for a recommended plan, hence a purchase plan with its segment.
    const window = { start: '2026-06-01T00:00:00Z', hours: 720 };
    const computed = computePlans({
      orgId: 'o1',
      provider: 'aws',
      window,
      streams: [m5LargeStream('i-1', new Float64Array(window.hours).fill(1))],
      commitments: [],
      offers: loadCatalog().offers('aws'),
      planSeed: planSeed('o1', 'aws', 1),
      createdAt: '2026-07-01T00:00:00.000Z',
    });

    // Assess
    expect(computed.purchasePlan?.segment.id).toBe(defaultSegmentId('o1', 'aws'));
    expect(defaultSegmentId('o1', 'gcp')).not.toBe(defaultSegmentId('o1', 'aws'));
  });
});
