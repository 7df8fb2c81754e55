/**
 * Sharing scope (docs/plan-engine.md): commitments cover every account of the org and provider by default
 * (`organization`), or one account each (`account`). Known answers worked by hand, then a property
 * on random fleets.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { resourceMatchesForWindow } from '../../../shared/domain/engine/matches/window-matches';
import { computePlans } from '../../../shared/domain/engine/plans/plans';
import type { CommitmentSharing, Offer, UsageStream } from '../../../shared/domain/engine/shapes/model';
import { commitment, engineInput, HIGH_SAVINGS, hourly, instanceScope, offer, stream } from './builders';

/** A Windows m5.large at p = 1 in account `accountId`, running (1 instance) in the given hours. */
const runningIn = (accountId: string, resourceId: string, hours: (hour: number) => boolean) =>
  stream({ accountId, resourceId, usage: hourly(10, (hour) => (hours(hour) ? 1 : 0)) });

/**
 * Account A runs one instance in hours 0-3 (F(1) = 0.4), account B in hours 5-9 (F(1) = 0.5). An
 * offer at r = 0.5 buys unit k iff F(k) > r / p = 0.5 (h = 0, no fee): neither account alone
 * justifies it. Together U = 1 in 9 hours of 10: F(1) = 0.9 > 0.5, one unit.
 */
const TWO_ACCOUNTS = [
  runningIn('account-a', 'i-a', (hour) => hour < 4),
  runningIn('account-b', 'i-b', (hour) => hour >= 5),
];

const plansFor = (sharing: CommitmentSharing | undefined, streams: readonly UsageStream[], offers: Offer[]) =>
  computePlans(engineInput({ hours: 10, streams, offers, profiles: [HIGH_SAVINGS], sharing })).plans[0];

describe('sharing scope: known answers', () => {
  it('buys one unit for two accounts whose usage only together justifies it, in the account that uses it most', () => {
    // Act
    const shared = plansFor(undefined, TWO_ACCOUNTS, [offer({ id: 'ri', recurring: 0.5 })]);
    const perAccount = plansFor('account', TWO_ACCOUNTS, [offer({ id: 'ri', recurring: 0.5 })]);

    // Assess: covered = p * mean min(U, 1) = 0.9, amortized = 0.5, savings = 0.4 per hour. B's
    // usage is 5 of the 9 covered instance-hours: B buys.
    expect(shared?.lineItems).toHaveLength(1);
    const line = shared?.lineItems[0];
    expect(line?.selected_quantity).toBe(1);
    expect(line?.account_id).toBe('account-b');
    expect(line?.covered_ondemand_cost).toBeCloseTo(0.9, 12);
    expect(line?.savings).toBeCloseTo(0.4, 12);
    expect(shared?.plan.commitment_coverage).toBeCloseTo(1, 12);
    expect(perAccount?.lineItems).toEqual([]);
  });

  it('covers both accounts with one savings plan when only their summed spend justifies it', () => {
    // Prepare: a plan at discount 0.5 covers one on-demand dollar for 0.5 commitment dollars, so
    // a commitment level c pays iff the hours spending at least c exceed half of them (r/p = 0.5).
    const plan = offer({
      id: 'sp',
      contractType: 'compute_plans',
      scope: { kind: 'spend', rates: [{ discount: 0.5 }] },
      recurring: 1,
    });

    // Act
    const shared = plansFor('organization', TWO_ACCOUNTS, [plan]);
    const perAccount = plansFor('account', TWO_ACCOUNTS, [plan]);

    // Assess: 0.5 commitment dollars cover 1 on-demand dollar in 9 hours of 10: covered 0.9,
    // cost 0.5, savings 0.4 per hour; alone, 4 or 5 hours of 10 never beat half of them.
    expect(shared?.lineItems).toHaveLength(1);
    expect(shared?.lineItems[0]?.selected_commitment).toBeCloseTo(0.5, 12);
    expect(shared?.lineItems[0]?.account_id).toBe('account-b');
    expect(shared?.lineItems[0]?.savings).toBeCloseTo(0.4, 12);
    expect(perAccount?.lineItems).toEqual([]);
  });

  it("lets one account's reservation cover another account's usage, unless sharing is off", () => {
    // Prepare: A owns one m5.large Windows RI and runs nothing; B runs one m5.large all the time.
    const streams = [runningIn('account-b', 'i-b', () => true)];
    const owned = [commitment({ id: 'ri-a', accountId: 'account-a', recurringCost: 0.5 })];
    const input = (sharing: CommitmentSharing) =>
      engineInput({
        hours: 10,
        streams,
        commitments: owned,
        offers: [offer({ id: 'ri', recurring: 0.5 })],
        profiles: [HIGH_SAVINGS],
        sharing,
      });

    // Act
    const shared = computePlans(input('organization')).plans[0];
    const perAccount = computePlans(input('account')).plans[0];

    // Assess: shared, the RI covers all of B's usage: nothing left on demand, nothing to buy. Per
    // account, B's usage stays on demand (1 per hour) and B buys its own unit.
    expect(shared?.plan.commitment_coverage).toBeCloseTo(1, 12);
    expect(shared?.plan.before_ondemand_cost_hourly).toBeCloseTo(0, 12);
    expect(shared?.lineItems).toEqual([]);
    expect(perAccount?.plan.before_ondemand_cost_hourly).toBeCloseTo(1, 12);
    expect(perAccount?.lineItems.map((item) => [item.account_id, item.selected_quantity])).toEqual([
      ['account-b', 1],
    ]);
  });

  it('covers the same usage again from a line item that names the buying account', () => {
    // Prepare
    const input = engineInput({
      hours: 10,
      streams: TWO_ACCOUNTS,
      offers: [offer({ id: 'ri', recurring: 0.5 })],
      profiles: [HIGH_SAVINGS],
    });
    const plan = computePlans(input).plans[0];

    // Act
    const matches = resourceMatchesForWindow(input, plan?.lineItems ?? [], { start: 0, end: 10 });

    // Assess: both accounts' resources are matched to the one line item, as in the plan.
    expect(matches.map((entry) => entry.match.resource.id).sort()).toEqual(['i-a', 'i-b']);
    expect(matches.reduce((total, entry) => total + entry.match.covered_ondemand_cost, 0)).toBeCloseTo(
      0.9,
      12,
    );
  });

  it('refuses an unknown sharing scope, naming the field', () => {
    // Prepare
    const input = engineInput({ hours: 1, sharing: 'everyone' as CommitmentSharing });

    // Act, Assess
    expect(() => computePlans(input)).toThrow(
      expect.objectContaining({ fields: { sharing: ['must be one of organization, account'] } }),
    );
  });
});

/** Streams of three accounts in two exact groups and one size-flexible family (large = 4, xlarge = 8). */
const fleetArbitrary = (hours: number) =>
  fc.array(
    fc.record({
      account: fc.constantFrom('a', 'b', 'c'),
      kind: fc.constantFrom('windows-m5', 'windows-r5', 'linux-large', 'linux-xlarge'),
      usage: fc.array(fc.integer({ min: 0, max: 3 }), { minLength: hours, maxLength: hours }),
    }),
    { minLength: 1, maxLength: 8 },
  );

describe('sharing scope: property', () => {
  it('never saves less shared across the org than per account, on the same fleet', () => {
    // The engine's rule per group (or savings-plan pool) is the exact optimum of one offer's total
    // value; with h = 0 that value is total_savings. Any per-account quantities q_a, summed, cover
    // min(sum R_a, sum q_a) >= sum min(R_a, q_a) at the same cost, so pooling cannot lose. That
    // holds for one offer per scope and one stage (reservations, or a savings plan); the fleets
    // below are drawn that way.
    const offerSets = (rate: number, discount: number): Offer[][] => [
      [
        offer({ id: 'windows-m5', recurring: rate }),
        offer({
          id: 'windows-r5',
          recurring: rate,
          scope: instanceScope({ instanceType: 'r5.large' }),
        }),
        offer({
          id: 'linux-m5',
          recurring: rate * 0.125,
          scope: {
            kind: 'family',
            region: 'us-east-1',
            family: 'm5',
            operatingSystem: 'Linux',
            tenancy: 'Shared',
          },
        }),
      ],
      [
        offer({
          id: 'sp',
          contractType: 'compute_plans',
          scope: { kind: 'spend', rates: [{ family: 'm5', discount }, { discount: discount / 2 }] },
          recurring: 1,
        }),
      ],
    ];
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 24 }).chain((hours) =>
          fc.record({
            hours: fc.constant(hours),
            fleet: fleetArbitrary(hours),
            rate: fc.double({ min: 0.2, max: 1, noNaN: true }),
            discount: fc.double({ min: 0.05, max: 0.7, noNaN: true }),
            stage: fc.constantFrom(0, 1),
          }),
        ),
        ({ hours, fleet, rate, discount, stage }) => {
          // Prepare
          const streams = fleet.map(({ account, kind, usage }, index) =>
            stream({
              resourceId: `r-${index}`,
              accountId: account,
              instanceType:
                kind === 'windows-r5' ? 'r5.large' : kind === 'linux-xlarge' ? 'm5.xlarge' : 'm5.large',
              operatingSystem: kind.startsWith('linux') ? 'Linux' : 'Windows',
              ondemandPrice: kind === 'linux-xlarge' ? 1 : kind === 'linux-large' ? 0.5 : 1,
              usage,
            }),
          );
          const offers = offerSets(rate, discount)[stage] as Offer[];
          const savingsOf = (sharing: CommitmentSharing) =>
            computePlans(engineInput({ hours, streams, offers, profiles: [HIGH_SAVINGS], sharing })).plans[0]
              ?.plan.total_savings ?? 0;

          // Act
          const shared = savingsOf('organization');
          const perAccount = savingsOf('account');

          // Assess
          expect(shared).toBeGreaterThanOrEqual(perAccount - 1e-9 * Math.max(1, perAccount));
        },
      ),
    );
  });
});
