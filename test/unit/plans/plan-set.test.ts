import { describe, expect, it } from 'vitest';
import { loadCatalog } from '../../../shared/domain/catalog/catalog';
import { computePlans } from '../../../shared/domain/engine';
import {
  defaultSegmentId,
  isCurrent,
  isServedPlan,
  LOOKBACK_HOURS,
  lookbackWindow,
  type PlanSetState,
  planSeed,
  usageVersionOf,
} from '../../../shared/domain/plans/plan-set';
import { type ImportSession, importStatus, type UsageState } from '../../../shared/domain/usage/usage-state';
import { m5LargeStream } from '../../support/usage-streams';

function usageState(changes: Partial<UsageState> = {}): UsageState {
  return {
    orgId: 'o1',
    provider: 'aws',
    usageVersion: 4,
    importSession: null,
    firstHour: '2026-05-01T00:00:00Z',
    lastHour: '2026-06-30T23:00:00Z',
    resources: 3,
    commitments: 0,
    updatedAt: '2026-07-01T00:00:00Z',
    version: 9,
    ...changes,
  };
}

/** An import that began at version 5 on inputs whole at version 4, its lease until 01:00. */
const session: ImportSession = {
  sessionId: 's1',
  startedAt: '2026-07-01T00:00:00Z',
  expiresAt: '2026-07-01T01:00:00Z',
  baseVersion: 4,
};
const duringLease = new Date('2026-07-01T00:30:00Z');
const afterLease = new Date('2026-07-01T01:00:00Z');

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

  it('never ends the lookback after the hour that is not yet in the future, whatever hour is stored', () => {
    // Prepare: usage stored (before future rows were refused) up to 2062; now is 12:34 on Sep 1.
    const now = new Date('2026-09-01T12:34:56Z');

    // Act
    const window = lookbackWindow('2062-06-30T23:00:00Z', now);

    // Assess: the last hour is 13:00 (12:00 plus one hour of clock skew), so 720 hours start at 14:00 on Aug 2.
    expect(window).toEqual({ start: '2026-08-02T14:00:00Z', hours: 720 });
  });

  it('counts a plan set current only when computed from the stored version with no import running', () => {
    const now = new Date('2026-07-01T00:30:00Z');
    expect(isCurrent(planSet(4), usageState(), now)).toBe(true);
    expect(isCurrent(planSet(3), usageState(), now)).toBe(false);
    expect(isCurrent(planSet(null), usageState(), now)).toBe(false);
    expect(isCurrent(null, usageState(), now)).toBe(false);
    // No usage state at all is version 0.
    expect(isCurrent(planSet(0), null, now)).toBe(true);
    expect(usageVersionOf(null)).toBe(0);
  });

  it('counts no plan current while an import session holds its lease', () => {
    const importing = usageState({ usageVersion: 5, importSession: session });
    expect(importStatus(importing, duringLease)).toBe('open');
    expect(isCurrent(planSet(4), importing, duringLease)).toBe(false);
    expect(isCurrent(planSet(5), importing, duringLease)).toBe(false);
  });

  it('after an import was abandoned, keeps the plans of the inputs before it, never ones of its half-written inputs', () => {
    const abandoned = usageState({ usageVersion: 5, importSession: session });
    expect(importStatus(abandoned, afterLease)).toBe('abandoned');
    expect(isCurrent(planSet(4), abandoned, afterLease)).toBe(true);
    expect(isCurrent(planSet(5), abandoned, afterLease)).toBe(false);
    expect(isCurrent(planSet(3), abandoned, afterLease)).toBe(false);
    expect(importStatus(usageState(), afterLease)).toBe('none');
  });

  it("serves a plan by id only while it is one of the published set's plans, or pinned", () => {
    expect(isServedPlan(planSet(4), 'b')).toBe(true);
    expect(isServedPlan(planSet(4), 'superseded')).toBe(false);
    expect(isServedPlan(planSet(null), 'a')).toBe(false);
    expect(isServedPlan(null, 'a')).toBe(false);
    expect(isServedPlan(planSet(4), 'superseded', true)).toBe(true);
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
