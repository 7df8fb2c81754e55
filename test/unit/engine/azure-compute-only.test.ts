/**
 * Azure reservations and the Azure savings plan cover the compute meter only (docs/plan-engine.md): a Windows
 * VM is valued at the Linux rate of its size and its license stays on demand.
 */
import { describe, expect, it } from 'vitest';
import { loadCatalog } from '../../../shared/domain/catalog/catalog';
import { withComputePrices } from '../../../shared/domain/catalog/compute-prices';
import { chartSeries } from '../../../shared/domain/engine/chart/chart';
import { computePlans, type ProfilePlan } from '../../../shared/domain/engine/plans/plans';
import { commitment, engineInput, HIGH_SAVINGS, hourly, stream, WINDOW_START } from './builders';

const catalog = loadCatalog();
const HOURS = 720;
/** Catalog: Linux Standard_D4s_v5 in eastus, 2 x the D2s_v5 reference price 0.096. */
const LINUX_PRICE = 0.192;
/** What a Windows D4s_v5 is billed: the compute rate plus a license of 0.184 an hour. */
const WINDOWS_PRICE = 0.376;

function d4sFleet(operatingSystem: 'Linux' | 'Windows') {
  return [0, 1].map((k) =>
    stream({
      resourceId: `vm-${k}`,
      provider: 'azure',
      accountId: 'sub-1',
      region: 'eastus',
      service: 'Virtual Machines',
      instanceType: 'Standard_D4s_v5',
      operatingSystem,
      ondemandPrice: operatingSystem === 'Linux' ? LINUX_PRICE : WINDOWS_PRICE,
      usage: hourly(HOURS, () => 1),
    }),
  );
}

function highSavingsPlan(operatingSystem: 'Linux' | 'Windows'): ProfilePlan {
  const plans = computePlans(
    engineInput({
      hours: HOURS,
      provider: 'azure',
      // As the service loads them: the catalog gives licensed VMs their compute price.
      streams: withComputePrices(d4sFleet(operatingSystem), catalog),
      offers: catalog.offers('azure'),
      profiles: [HIGH_SAVINGS],
    }),
  );
  return plans.plans[0] as ProfilePlan;
}

describe('Azure commitments cover the compute meter only', () => {
  it('saves the same on a Windows fleet as on the same Linux fleet', () => {
    // Prepare / Act
    const linux = highSavingsPlan('Linux');
    const windows = highSavingsPlan('Windows');

    // Assess: known answer. Two D4s_v5 run every hour: 8 Dsv5 units (ratio 4 each), worth 0.048 an
    // hour each at the Linux rate. The 3-year Dsv5 reservation costs 0.036864 / 2 = 0.018432 per
    // unit-hour, so it saves 8 x (0.048 - 0.018432) = 0.236544 an hour, and covers 0.384 of on-demand.
    for (const plan of [linux, windows]) {
      expect(plan.lineItems).toHaveLength(1);
      expect(plan.lineItems[0]?.recommended_quantity).toBe(8);
      expect(plan.lineItems[0]?.covered_ondemand_cost).toBeCloseTo(0.384, 12);
      expect(plan.lineItems[0]?.discount_rate).toBeCloseTo(61.6, 9);
      expect(plan.plan.savings_hourly).toBeCloseTo(0.236544, 12);
    }
    expect(windows.plan.savings_hourly).toBeCloseTo(linux.plan.savings_hourly, 12);
    expect(windows.lineItems[0]?.breakeven_hours).toBeCloseTo(linux.lineItems[0]?.breakeven_hours ?? 0, 9);
    // The license stays on demand: the Windows fleet is covered for its compute part only.
    expect(linux.plan.commitment_coverage).toBeCloseTo(1, 12);
    expect(windows.plan.commitment_coverage).toBeCloseTo(0.384 / (2 * WINDOWS_PRICE), 12);
    expect(windows.plan.after_cost_hourly).toBeCloseTo(2 * WINDOWS_PRICE - 0.236544, 12);
  });

  it('leaves the license on demand in the resource matches, which sum to the line', () => {
    const windows = highSavingsPlan('Windows');
    const line = windows.lineItems[0];
    const matches = [...windows.resourceMatches].map(({ match }) => match);

    expect(matches).toHaveLength(2);
    for (const match of matches) {
      expect(match.ondemand_price).toBe(WINDOWS_PRICE);
      expect(match.before_ondemand_cost).toBeCloseTo(WINDOWS_PRICE, 12);
      expect(match.covered_ondemand_cost).toBeCloseTo(LINUX_PRICE, 12);
      // Each VM still pays its 0.184 license on demand after the reservation.
      expect(match.after_ondemand_cost).toBeCloseTo(WINDOWS_PRICE - LINUX_PRICE, 12);
      expect(match.average_savings).toBeCloseTo(0.236544 / 2, 12);
    }
    const sum = (field: 'covered_ondemand_cost' | 'average_savings') =>
      matches.reduce((total, match) => total + match[field], 0);
    expect(sum('covered_ondemand_cost')).toBeCloseTo(line?.covered_ondemand_cost ?? Number.NaN, 12);
    expect(sum('average_savings')).toBeCloseTo(line?.savings ?? Number.NaN, 12);
  });

  it('lets the Azure savings plan cover Windows VMs at their compute rate', () => {
    const savingsPlans = catalog.offers('azure').filter((offer) => offer.scope.kind === 'spend');
    const plans = computePlans(
      engineInput({
        hours: HOURS,
        provider: 'azure',
        streams: withComputePrices(d4sFleet('Windows'), catalog),
        offers: savingsPlans,
        profiles: [HIGH_SAVINGS],
      }),
    );
    const line = plans.plans[0]?.lineItems[0];
    // The 3-year plan's 49% off the Linux rate: 0.384 covered for 0.384 x 0.51 = 0.19584 an hour.
    expect(line?.recommended_commitment).toBeCloseTo(0.19584, 12);
    expect(line?.covered_ondemand_cost).toBeCloseTo(0.384, 12);
    expect(line?.savings).toBeCloseTo(0.384 - 0.19584, 12);
  });

  it('plans nothing for a licensed VM whose compute rate is unknown, rather than guess it', () => {
    // Straight to the engine: no catalog has given the Windows VMs a compute price.
    const plans = computePlans(
      engineInput({
        hours: HOURS,
        provider: 'azure',
        streams: d4sFleet('Windows'),
        offers: catalog.offers('azure'),
        profiles: [HIGH_SAVINGS],
      }),
    );
    expect(plans.plans[0]?.lineItems).toEqual([]);
  });

  it.each([
    [
      'reservation',
      // One 3-year Dsv5 reservation of one D4s_v5 (4 units): covers one VM's compute, 0.192.
      { contractType: 'vm' as const, instanceType: 'Standard_D4s_v5', quantity: 1, recurringCost: 0.073728 },
    ],
    [
      'savings plan',
      // A one-year, no-upfront savings plan of 0.144 an hour: 25% off Dsv5 in eastus, so it covers
      // 0.144 / 0.75 = 0.192 of compute, one VM's.
      {
        contractType: 'compute_plans' as const,
        instanceType: null,
        quantity: 0,
        hourlyCommitment: 0.144,
        recurringCost: 0.144,
        start: '2024-09-01T00:00:00.000Z',
        end: '2025-09-01T00:00:00.000Z',
        lockinEnd: '2025-09-01T00:00:00.000Z',
      },
    ],
  ])(
    'values an owned %s on Windows VMs at their compute price, leaving the license on demand',
    (_, owned) => {
      // Prepare: two Windows D4s_v5 (0.376 each, 0.752 in all) run every hour; what the org owns
      // covers 0.192 of compute. The catalog's savings plans are offered (the owned plan's rates).
      const plans = computePlans(
        engineInput({
          hours: HOURS,
          provider: 'azure',
          streams: withComputePrices(d4sFleet('Windows'), catalog),
          commitments: [
            commitment({
              id: 'owned',
              provider: 'azure',
              accountId: 'sub-1',
              region: 'eastus',
              start: '2024-01-01T00:00:00.000Z',
              end: '2027-01-01T00:00:00.000Z',
              lockinEnd: '2027-01-01T00:00:00.000Z',
              ...owned,
            }),
          ],
          offers: catalog.offers('azure').filter((offer) => offer.scope.kind === 'spend'),
          profiles: [HIGH_SAVINGS],
        }),
      );
      const plan = plans.plans[0] as ProfilePlan;

      // Assess: covered 0.192 of 0.752: coverage 0.192 / 0.752 (0.26, not the 0.5 of crediting the
      // covered VM's license) before the plan's lines add theirs; on demand before the plan
      // 0.752 - 0.192 = 0.56 (both licenses, 0.184 each, stay on demand).
      const planned = plan.lineItems.reduce((sum, line) => sum + line.covered_ondemand_cost, 0);
      expect(plan.plan.commitment_coverage).toBeCloseTo((0.192 + planned) / 0.752, 12);
      expect(plan.plan.before_ondemand_cost_hourly).toBeCloseTo(0.56, 12);
    },
  );

  it('charts an owned reservation saving the same on Windows VMs as on Linux ones', () => {
    // One owned 3-year reservation of two D4s_v5 (8 units at 0.018432): 0.147456 an hour.
    const owned = commitment({
      id: 'ri',
      provider: 'azure',
      accountId: 'sub-1',
      region: 'eastus',
      contractType: 'vm',
      instanceType: 'Standard_D4s_v5',
      quantity: 2,
      recurringCost: 0.147456,
      start: '2024-01-01T00:00:00.000Z',
      end: '2027-01-01T00:00:00.000Z',
      lockinEnd: '2027-01-01T00:00:00.000Z',
    });
    const chart = (operatingSystem: 'Linux' | 'Windows') =>
      chartSeries({
        window: { start: WINDOW_START, hours: HOURS },
        streams: withComputePrices(d4sFleet(operatingSystem), catalog),
        commitments: [owned],
        offers: catalog.offers('azure'),
        startDate: '2025-01-02',
        endDate: '2025-01-02',
        today: '2025-01-31',
      });
    // A day: 24 x (0.384 - 0.147456) = 5.677056.
    expect(chart('Linux')[0]?.savings).toBeCloseTo(5.677056, 9);
    expect(chart('Windows')[0]?.savings).toBeCloseTo(5.677056, 9);
  });
});
