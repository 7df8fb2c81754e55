/**
 * Line figures that must agree (docs/plan-engine.md, Figures), on random lines: those the engine
 * plans on random fleets, guaranteed leases with fees and upfront payments among their offers,
 * and lines of any offer, quantity and coverage given to `lineFigures` directly. Each identity is
 * checked against an oracle that computes the figure its own way: payments added hour by hour over
 * the term, the savings of the units used, break-even by walking the hours.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lineFigures } from '../../../shared/domain/engine/plans/figures';
import { computePlans } from '../../../shared/domain/engine/plans/plans';
import type { Offer, UsageStream } from '../../../shared/domain/engine/shapes/model';
import type { LineItem } from '../../../shared/domain/engine/shapes/plan-shapes';
import { breakevenByWalking } from './breakeven-oracle';
import { engineInput, offer, stream } from './builders';

const HOURS_PER_MONTH = 730;

const close = (actual: number, expected: number, tolerance = 1e-9) =>
  expect(Math.abs(actual - expected)).toBeLessThanOrEqual(tolerance * Math.max(1, Math.abs(expected)));

const TARGETS = {
  'windows-m5': { instanceType: 'm5.large', operatingSystem: 'Windows', price: 1 },
  'windows-r5': { instanceType: 'r5.large', operatingSystem: 'Windows', price: 1.5 },
  'linux-m5': { instanceType: 'm5.xlarge', operatingSystem: 'Linux', price: 1 },
} as const;
type Target = keyof typeof TARGETS;

const streamArbitrary = (hours: number, index: number): fc.Arbitrary<UsageStream> =>
  fc
    .record({
      target: fc.constantFrom<Target>('windows-m5', 'windows-r5', 'linux-m5'),
      usage: fc.array(fc.integer({ min: 0, max: 5 }), { minLength: hours, maxLength: hours }),
    })
    .map(({ target, usage }) =>
      stream({ resourceId: `r-${index}`, ...TARGETS[target], ondemandPrice: TARGETS[target].price, usage }),
    );

/** Provider offers, 30-day and one-year leases of 3-year offers, and a savings plan, with fees. */
const offerArbitrary = (index: number): fc.Arbitrary<Offer> =>
  fc
    .record({
      target: fc.constantFrom<Target | 'spend'>('windows-m5', 'windows-r5', 'linux-m5', 'spend'),
      kind: fc.constantFrom('one_year', 'three_year', 'thirty_day_gris', 'one_year_gris'),
      rateShare: fc.double({ min: 0.2, max: 0.95, noNaN: true }),
      upfrontShare: fc.constantFrom(0, 0.5, 1),
      feeRate: fc.constantFrom(0, 0.15, 0.3),
      discount: fc.integer({ min: 1, max: 14 }).map((fives) => fives * 0.05),
    })
    .map(({ target, kind, rateShare, upfrontShare, feeRate, discount }) => {
      const leased = kind.endsWith('_gris');
      const termHours = kind === 'one_year' ? 8760 : 26280;
      const lockinHours = kind === 'thirty_day_gris' ? 720 : kind === 'one_year_gris' ? 8760 : termHours;
      const unitPrice = target === 'spend' ? 1 : target === 'linux-m5' ? 0.125 : TARGETS[target].price;
      const rate = target === 'spend' ? 1 : rateShare * unitPrice;
      const scope: Offer['scope'] =
        target === 'spend'
          ? { kind: 'spend', rates: [{ discount }] }
          : target === 'linux-m5'
            ? {
                kind: 'family',
                region: 'us-east-1',
                family: 'm5',
                operatingSystem: 'Linux',
                tenancy: 'Shared',
              }
            : {
                kind: 'instance',
                region: 'us-east-1',
                instanceType: TARGETS[target].instanceType,
                operatingSystem: 'Windows',
                tenancy: 'Shared',
              };
      return offer({
        id: `offer-${index}`,
        contractType:
          target === 'spend'
            ? leased
              ? 'leased_compute_plans'
              : 'compute_plans'
            : leased
              ? 'leased_ris'
              : 'standard_ris',
        term: kind as Offer['term'],
        scope,
        termHours,
        lockinHours,
        upfront: rate * upfrontShare * termHours,
        recurring: rate * (1 - upfrontShare),
        feeRate: leased ? feeRate : 0,
      });
    });

const fleetArbitrary = fc.integer({ min: 1, max: 24 }).chain((hours) =>
  fc
    .record({
      streams: fc
        .integer({ min: 1, max: 4 })
        .chain((count) => fc.tuple(...Array.from({ length: count }, (_, k) => streamArbitrary(hours, k)))),
      offers: fc
        .integer({ min: 1, max: 4 })
        .chain((count) => fc.tuple(...Array.from({ length: count }, (_, k) => offerArbitrary(k)))),
    })
    .map(({ streams, offers }) => ({ input: engineInput({ hours, streams, offers }), offers })),
);

/** Everything a line pays over its term, added hour by hour: upfront, then recurring and fee. */
function paidOverTerm(quantity: number, bought: Offer, feePerHour: number): number {
  let paid = quantity * bought.upfront;
  for (let hour = 0; hour < bought.termHours; hour++) paid += quantity * bought.recurring + feePerHour;
  return paid;
}

/** The figures every line must agree on, each against its oracle. */
function checkLine(
  item: Pick<
    LineItem,
    | 'selected_quantity'
    | 'covered_ondemand_cost'
    | 'after_covered_units'
    | 'after_amortized_cost'
    | 'fee'
    | 'savings'
    | 'total_savings'
    | 'total_cost'
    | 'monthly_cost'
    | 'discount_rate'
    | 'breakeven_hours'
  >,
  bought: Offer,
): void {
  const quantity = item.selected_quantity;
  const covered = item.covered_ondemand_cost;
  const rate = bought.upfront / bought.termHours + bought.recurring;
  const fee = bought.feeRate * Math.max(0, covered - quantity * rate);
  close(item.fee, fee);
  // Fees in both, and months of the term = T / 730.
  close(item.total_cost, paidOverTerm(quantity, bought, fee), 1e-8);
  close(item.total_cost, (item.monthly_cost * bought.termHours) / HOURS_PER_MONTH);
  close(item.total_savings, covered * bought.termHours - item.total_cost, 1e-8);
  // The discount of the units used, net of the fee: what they save over what they cover.
  const units = item.after_covered_units;
  if (units > 0 && covered > 0) {
    const gross = covered - units * rate;
    const net = gross - bought.feeRate * Math.max(0, gross);
    close(item.discount_rate, (100 * net) / covered, 1e-8);
    // A line whose every unit is used saves exactly its discount.
    if (Math.abs(units - quantity) <= 1e-12 * quantity)
      close(item.discount_rate, (100 * item.savings) / covered, 1e-8);
  } else {
    expect(item.discount_rate).toBe(0);
  }
  // Break-even against the lock-in: walked hour by hour.
  const walked = breakevenByWalking([{ coveredPerHour: covered, quantity, offer: bought }]);
  close(item.breakeven_hours, walked, 1e-8);
  if (item.savings > 0) expect(item.breakeven_hours).toBeLessThanOrEqual(bought.termHours);
  // A lease without upfront that saves money cannot need more hours than its lock-in.
  if (item.savings > 0 && bought.upfront === 0)
    expect(item.breakeven_hours).toBeLessThanOrEqual(bought.lockinHours);
}

describe('line figures on random lines', () => {
  it("agrees with the oracles on every line the engine plans, leases' fees included", () => {
    fc.assert(
      fc.property(fleetArbitrary, ({ input, offers }) => {
        for (const { lineItems } of computePlans(input).plans) {
          for (const item of lineItems) {
            checkLine(item, offers.find((entry) => entry.id === item.offer_id) as Offer);
          }
        }
      }),
      { numRuns: 150 },
    );
  });

  it('agrees with the oracles on lines of any quantity and coverage, losing ones too', () => {
    const lineArbitrary = fc.record({
      bought: offerArbitrary(0),
      quantity: fc.integer({ min: 1, max: 20 }),
      // Price per unit covered, and the share of the units used.
      price: fc.double({ min: 0.05, max: 3, noNaN: true }),
      used: fc.integer({ min: 0, max: 1000 }).map((thousandths) => thousandths / 1000),
    });
    fc.assert(
      fc.property(lineArbitrary, ({ bought, quantity, price, used }) => {
        const units = quantity * used;
        const figures = lineFigures(bought, quantity, units * price, units);
        checkLine(
          {
            selected_quantity: quantity,
            covered_ondemand_cost: figures.coveredOndemand,
            after_covered_units: figures.coveredUnits,
            after_amortized_cost: figures.amortized,
            fee: figures.fee,
            savings: figures.savings,
            total_savings: figures.totalSavings,
            total_cost: figures.totalCost,
            monthly_cost: figures.monthlyCost,
            discount_rate: figures.discountRate,
            breakeven_hours: figures.breakevenHours,
          },
          bought,
        );
      }),
      { numRuns: 300 },
    );
  });
});
