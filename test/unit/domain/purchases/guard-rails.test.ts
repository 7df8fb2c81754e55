import { describe, expect, it } from 'vitest';
import type { Offer } from '../../../../shared/domain/engine';
import { checkGuardRails, type GuardRailInput } from '../../../../shared/domain/purchases/guard-rails';
import { aPurchaseRecord } from '../../../support/purchase-records';

const offer = { id: 'o1', upfront: 0, termHours: 8760, recurring: 0.06 } as Offer;
const input = (overrides: Partial<GuardRailInput> = {}): GuardRailInput => ({
  record: aPurchaseRecord({ orgId: 'org-1', limitPrice: { upfront: 0, hourly: 0.06 } }),
  plan: { orgId: 'org-1', status: 'scheduled' },
  policy: { maxUpfrontCost: null },
  planUpfrontCost: 5000,
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

  it("refuses a plan whose upfront total is over the org's cap, naming both amounts", () => {
    const decision = checkGuardRails(input({ policy: { maxUpfrontCost: 4999.99 } }));
    expect(decision).toEqual({
      decision: 'refuse',
      code: 'max_upfront_cost_exceeded',
      reason: "the plan's upfront cost $5000.00 exceeds the organization's max_upfront_cost $4999.99",
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
