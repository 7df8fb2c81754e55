/**
 * An owned lease's offer (docs/plan-engine.md, What an owned commitment covers): both guaranteed
 * leases of a three-year reservation run its 26,280-hour term and differ in lock-in and fee, so
 * the offer is the one nearest in term and then in lock-in: a 30-day lease is charged the 30-day
 * lease's fee (0.30), not the one-year lease's (0.15) that a lower id would give.
 */
import { describe, expect, it } from 'vitest';
import { commitmentOffer } from '../../../shared/domain/engine/portfolio/commitment-offer';
import { commitment, offer } from './builders';

const THREE_YEARS = 26_280;
const yearLease = offer({ id: 'lease-a-year', termHours: THREE_YEARS, lockinHours: 8_760, feeRate: 0.15 });
const monthLease = offer({ id: 'lease-b-month', termHours: THREE_YEARS, lockinHours: 720, feeRate: 0.3 });

function leaseOwned(lockinHours: number) {
  const start = Date.parse('2025-01-01T00:00:00.000Z');
  return commitment({
    id: 'owned-lease',
    quantity: 1,
    start: new Date(start).toISOString(),
    end: new Date(start + THREE_YEARS * 3_600_000).toISOString(),
    lockinEnd: new Date(start + lockinHours * 3_600_000).toISOString(),
  });
}

describe("an owned lease's offer", () => {
  it('is the lease of its lock-in: 720 hours the 30-day lease, 8,760 the one-year lease', () => {
    expect(commitmentOffer(leaseOwned(720), [yearLease, monthLease])?.feeRate).toBe(0.3);
    expect(commitmentOffer(leaseOwned(8_760), [yearLease, monthLease])?.feeRate).toBe(0.15);
  });
});
