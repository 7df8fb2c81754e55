import { describe, expect, it } from 'vitest';
import type { Offer } from '../../../../shared/domain/engine';
import {
  checkGuardRails,
  type GuardRailInput,
  upfrontOverWindow,
} from '../../../../shared/domain/purchases/guard-rails';
import { aPurchaseRecord } from '../../../support/purchase-records';

const offer = { id: 'o1', upfront: 0, termHours: 8760, recurring: 0.06 } as Offer;
const input = (overrides: Partial<GuardRailInput> = {}): GuardRailInput => ({
  record: aPurchaseRecord({ orgId: 'org-1', limitPrice: { upfront: 0, hourly: 0.06 } }),
  plan: { orgId: 'org-1', status: 'scheduled' },
  policy: { maxUpfrontCost: null },
  upfrontOverWindow: 5000,
  offer,
  ...overrides,
});

describe('guard rails before a first purchase attempt', () => {
  it('lets a scheduled plan of the org buy at the price it was applied at', () => {
    expect(checkGuardRails(input())).toEqual({ decision: 'buy' });
    expect(checkGuardRails(input({ plan: { orgId: 'org-1', status: 'in_progress' } })).decision).toBe('buy');
  });

  it('refuses a plan the org does not own, or that is gone', () => {
    expect(checkGuardRails(input({ plan: { orgId: 'org-2', status: 'scheduled' } }))).toMatchObject({
      decision: 'refuse',
      code: 'plan_not_owned',
    });
    expect(checkGuardRails(input({ plan: null }))).toMatchObject({
      decision: 'refuse',
      code: 'plan_not_owned',
    });
  });

  it('waits while the plan is not scheduled: an apply that stopped half-way', () => {
    expect(checkGuardRails(input({ plan: { orgId: 'org-1', status: 'new' } }))).toMatchObject({
      decision: 'wait',
    });
  });

  it("refuses purchases whose 30-day upfront total is over the org's cap, naming both amounts", () => {
    const decision = checkGuardRails(input({ policy: { maxUpfrontCost: 4999.99 } }));
    expect(decision).toEqual({
      decision: 'refuse',
      code: 'max_upfront_cost_exceeded',
      reason:
        "the organization's upfront purchases over 30 days, this plan's included, would be $5000.00, above its max_upfront_cost $4999.99",
    });
    expect(checkGuardRails(input({ policy: { maxUpfrontCost: 5000 } })).decision).toBe('buy');
  });

  it('refuses an offer withdrawn or priced above the limit, not one priced the same or lower', () => {
    expect(checkGuardRails(input({ offer: undefined }))).toMatchObject({ code: 'offer_withdrawn' });
    expect(checkGuardRails(input({ offer: { ...offer, recurring: 0.0601 } }))).toMatchObject({
      code: 'price_changed',
    });
    expect(checkGuardRails(input({ offer: { ...offer, upfront: 1 } }))).toMatchObject({
      code: 'price_changed',
    });
    expect(checkGuardRails(input({ offer: { ...offer, recurring: 0.05 } })).decision).toBe('buy');
  });
});

describe('the upfront cap over any 30 days', () => {
  it("counts every other plan's purchase not refused within the 30 days, at its charged or planned cost", () => {
    // Now 2026-11-24T10:00Z; the window starts 720 hours earlier, 2026-10-25T10:00Z.
    const now = new Date('2026-11-24T10:00:00Z');
    const records = [
      // Another plan bought 3 days ago, charged $4,000 (planned $4,100): counts 4,000.
      aPurchaseRecord({
        planId: 'p-a',
        status: 'completed',
        createdAt: '2026-11-21T09:00:00Z',
        completedAt: '2026-11-21T10:00:00Z',
        upfrontCost: 4000,
        plannedUpfrontCost: 4100,
      }),
      // Another plan queued an hour ago: counts its planned $1,500.
      aPurchaseRecord({
        planId: 'p-b',
        status: 'queued',
        createdAt: '2026-11-24T09:00:00Z',
        plannedUpfrontCost: 1500,
      }),
      // Refused: nothing paid, not counted.
      aPurchaseRecord({
        planId: 'p-c',
        status: 'failed',
        createdAt: '2026-11-24T09:00:00Z',
        plannedUpfrontCost: 9000,
      }),
      // Bought 31 days ago: outside the window, not counted.
      aPurchaseRecord({
        planId: 'p-d',
        status: 'completed',
        createdAt: '2026-10-24T09:00:00Z',
        completedAt: '2026-10-24T10:00:00Z',
        upfrontCost: 7000,
      }),
      // The plan itself: counted once, as planUpfront.
      aPurchaseRecord({
        planId: 'p-self',
        status: 'queued',
        createdAt: '2026-11-24T09:30:00Z',
        plannedUpfrontCost: 2000,
      }),
    ];
    // 2,000 (this plan) + 4,000 + 1,500 = 7,500.
    expect(upfrontOverWindow(records, 'p-self', 2000, now)).toBe(7500);
  });
});
