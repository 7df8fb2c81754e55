/**
 * What an owned commitment covers and at which rate (docs/plan-engine.md, What an owned commitment
 * covers): savings plans take the rates of the catalog offer of their family, region, term and
 * payment option; reservations cover only usage of their platform, tenancy, engine and deployment.
 * Known answers worked by hand on small always-on fleets priced as the catalog prices them.
 */
import { describe, expect, it } from 'vitest';
import { loadCatalog } from '../../../shared/domain/catalog/catalog';
import { computePlans, type ProfilePlan } from '../../../shared/domain/engine/plans/plans';
import type { ExistingCommitment, UsageStream } from '../../../shared/domain/engine/shapes/model';
import { commitment, engineInput, HIGH_SAVINGS, hourly, stream } from './builders';

const catalog = loadCatalog();
const HOURS = 24;
/** A one-year term (365 days) around the window (2025-01-01) and the plan's time (2025-02-01). */
const ONE_YEAR_TERM = {
  start: '2024-09-01T00:00:00.000Z',
  end: '2025-09-01T00:00:00.000Z',
  lockinEnd: '2025-09-01T00:00:00.000Z',
} as const;

const alwaysOn = (spec: Partial<Omit<UsageStream, 'usage'>>) =>
  stream({ ...spec, usage: hourly(HOURS, () => 1) });

function highSavings(
  streams: readonly UsageStream[],
  commitments: readonly ExistingCommitment[],
): ProfilePlan {
  const plans = computePlans(
    engineInput({
      hours: HOURS,
      streams: [...streams],
      commitments: [...commitments],
      offers: catalog.offers('aws'),
      profiles: [HIGH_SAVINGS],
    }),
  );
  return plans.plans[0] as ProfilePlan;
}

const offerOf = (line: { offer_id: string }) => catalog.offerById(line.offer_id);

/** A Linux m5.large at the catalog's 0.096 an hour in us-east-1. */
const linuxLarge = (resourceId: string) =>
  alwaysOn({ resourceId, instanceType: 'm5.large', operatingSystem: 'Linux', ondemandPrice: 0.096 });

describe('savings plans take the rates of the offer they were bought from', () => {
  it('gives an EC2 Instance Savings Plan for m5 the m5 rates of its region, term and payment', () => {
    // Prepare: one m5.large Linux runs every hour (0.096). The org owns a one-year, no-upfront EC2
    // Instance Savings Plan for m5 in us-east-1 of 0.06 an hour: m5 Linux is 37.5% off, so 0.06
    // buys 0.06 / 0.625 = 0.096 of on-demand usage: all of it.
    const owned = commitment({
      id: 'isp-m5',
      contractType: 'instance_plans',
      instanceType: null,
      quantity: 0,
      hourlyCommitment: 0.06,
      recurringCost: 0.06,
      instanceFamily: 'm5',
      ...ONE_YEAR_TERM,
    });

    // Act
    const plan = highSavings([linuxLarge('i-m5')], [owned]);

    // Assess: fully covered by the plan owned, nothing left to buy.
    expect(plan.plan.commitment_coverage).toBeCloseTo(1, 12);
    expect(plan.plan.before_ondemand_cost_hourly).toBeCloseTo(0, 12);
    expect(plan.plan.before_reserved_cost_hourly).toBeCloseTo(0.06, 12);
    expect(plan.lineItems).toEqual([]);
  });

  it('gives an EC2 Instance Savings Plan of another family nothing to cover', () => {
    // Prepare: the same plan for r5 covers no m5 usage: the m5.large stays on demand.
    const owned = commitment({
      id: 'isp-r5',
      contractType: 'instance_plans',
      instanceType: null,
      quantity: 0,
      hourlyCommitment: 0.06,
      recurringCost: 0.06,
      instanceFamily: 'r5',
      ...ONE_YEAR_TERM,
    });

    // Act
    const plan = highSavings([linuxLarge('i-m5')], [owned]);

    // Assess: all of it is left to the plan.
    expect(plan.plan.before_ondemand_cost_hourly).toBeCloseTo(0.096, 12);
  });

  it.each([
    // Nothing recurring: all upfront, 33.1% off m5 Linux: 0.05 covers 0.05 / 0.669.
    ['all upfront, derived from its costs', { upfrontCost: 0.05 * 8760, recurringCost: 0 }, 0.669],
    // Nothing upfront: no upfront, 27.1% off: 0.05 covers 0.05 / 0.729.
    ['no upfront, derived from its costs', { upfrontCost: 0, recurringCost: 0.05 }, 0.729],
    // Both: partial upfront, 31.8% off: 0.05 covers 0.05 / 0.682.
    ['partial upfront, derived from its costs', { upfrontCost: 0.025 * 8760, recurringCost: 0.025 }, 0.682],
    // Recorded: partial upfront whatever the costs say.
    [
      'partial upfront, as recorded',
      { recurringCost: 0.05, paymentOption: 'Partial Upfront' as const },
      0.682,
    ],
  ])('gives a Compute Savings Plan bought %s the rates of its payment option', (_, costs, paid) => {
    // Prepare: a 0.05 an hour one-year Compute Savings Plan; an m5.large at 0.096 runs every hour.
    const owned = commitment({
      id: 'csp',
      contractType: 'compute_plans',
      instanceType: null,
      quantity: 0,
      hourlyCommitment: 0.05,
      region: '',
      ...ONE_YEAR_TERM,
      ...costs,
    });

    // Act
    const plan = highSavings([linuxLarge('i-m5')], [owned]);

    // Assess: it covers 0.05 / (1 - discount) of the 0.096 an hour.
    expect(plan.plan.before_ondemand_cost_hourly).toBeCloseTo(0.096 - 0.05 / paid, 12);
  });
});

describe('reservations cover only usage of their platform, tenancy, engine and deployment', () => {
  it('applies a Windows reservation to Windows usage only: the plan buys for Linux and not Windows again', () => {
    // Prepare: a Linux m5.large (0.096) and a Windows m5.large (0.188) run every hour; the org owns
    // one Windows m5.large reservation.
    const windows = alwaysOn({
      resourceId: 'i-win',
      instanceType: 'm5.large',
      operatingSystem: 'Windows',
      ondemandPrice: 0.188,
    });
    const owned = commitment({
      id: 'ri-win',
      instanceType: 'm5.large',
      operatingSystem: 'Windows',
      recurringCost: 0.152,
      ...ONE_YEAR_TERM,
    });

    // Act
    const plan = highSavings([linuxLarge('i-linux'), windows], [owned]);

    // Assess: the Windows VM is covered, the Linux one is left: covered 0.188 of 0.284; on demand
    // before the plan 0.096. The plan buys the Linux one's 4 m5 units (size flexible) and nothing
    // for Windows.
    expect(plan.plan.commitment_coverage).toBeCloseTo((0.188 + 0.096) / 0.284, 12);
    expect(plan.plan.before_ondemand_cost_hourly).toBeCloseTo(0.096, 12);
    expect(plan.lineItems).toHaveLength(1);
    const line = plan.lineItems[0];
    expect(offerOf(line as { offer_id: string })?.scope).toMatchObject({
      kind: 'family',
      family: 'm5',
      operatingSystem: 'Linux',
    });
    expect(line?.selected_quantity).toBe(4);
    expect(line?.covered_ondemand_cost).toBeCloseTo(0.096, 12);
  });

  it('leaves Linux usage on demand under a Windows reservation alone', () => {
    const owned = commitment({
      id: 'ri-win',
      instanceType: 'm5.large',
      operatingSystem: 'Windows',
      ...ONE_YEAR_TERM,
    });

    const plan = highSavings([linuxLarge('i-linux')], [owned]);

    expect(plan.plan.before_ondemand_cost_hourly).toBeCloseTo(0.096, 12);
    expect(plan.lineItems.map((line) => line.selected_quantity)).toEqual([4]);
  });

  it('applies a Dedicated reservation to Dedicated usage only', () => {
    // Prepare: a Shared Windows m5.large (0.188); the org owns a Dedicated Windows m5.large reservation.
    const shared = alwaysOn({ resourceId: 'i-shared', instanceType: 'm5.large', ondemandPrice: 0.188 });
    const owned = commitment({
      id: 'ri-dedicated',
      instanceType: 'm5.large',
      operatingSystem: 'Windows',
      tenancy: 'Dedicated',
      ...ONE_YEAR_TERM,
    });

    // Act
    const plan = highSavings([shared], [owned]);

    // Assess: nothing covered; the Shared VM is left to the plan.
    expect(plan.plan.before_ondemand_cost_hourly).toBeCloseTo(0.188, 12);
  });

  it.each([
    // Regional: size flexible, 2 x 4 = 8 units cover the m5.xlarge's 8: all of 0.192.
    ['a regional', undefined, 0],
    // Zonal: m5.large only; the m5.xlarge is left on demand.
    ['a zonal', 'us-east-1a', 0.192],
  ])('leaves of an m5.xlarge under %s Linux m5.large reservation %s an hour on demand', (_, zone, left) => {
    const xlarge = alwaysOn({
      resourceId: 'i-xl',
      instanceType: 'm5.xlarge',
      operatingSystem: 'Linux',
      ondemandPrice: 0.192,
    });
    const owned = commitment({
      id: 'ri-linux',
      instanceType: 'm5.large',
      operatingSystem: 'Linux',
      quantity: 2,
      ...ONE_YEAR_TERM,
      ...(zone === undefined ? {} : { availabilityZone: zone }),
    });

    const plan = highSavings([xlarge], [owned]);

    expect(plan.plan.before_ondemand_cost_hourly).toBeCloseTo(left, 12);
  });

  it('applies an RDS MySQL reservation to MySQL usage only, not to PostgreSQL', () => {
    // Prepare: a PostgreSQL db.m5.large (0.171); the org owns a MySQL db.m5.large reservation.
    const postgres = alwaysOn({
      resourceId: 'db-pg',
      service: 'AmazonRDS',
      instanceType: 'db.m5.large',
      operatingSystem: 'PostgreSQL',
      ondemandPrice: 0.171,
    });
    const owned = commitment({
      id: 'ri-mysql',
      contractType: 'db_ris',
      instanceType: 'db.m5.large',
      operatingSystem: 'MySQL',
      ...ONE_YEAR_TERM,
    });

    // Act
    const plan = highSavings([postgres], [owned]);

    // Assess: the catalog sells MySQL reservations only: the PostgreSQL database stays on demand.
    expect(plan.plan.commitment_coverage).toBe(0);
    expect(plan.plan.before_ondemand_cost_hourly).toBeCloseTo(0.171, 12);
  });
});

describe('a Multi-AZ database needs twice the units of a Single-AZ reservation', () => {
  /** A Multi-AZ MySQL db.m5.large: twice the Single-AZ 0.171, and 2 x 4 = 8 units of db.m5. */
  const multiAz = alwaysOn({
    resourceId: 'db-multi',
    service: 'AmazonRDS',
    instanceType: 'db.m5.large',
    operatingSystem: 'MySQL',
    deploymentOption: 'Multi-AZ',
    ondemandPrice: 0.342,
  });
  const reservation = (deploymentOption: 'Single-AZ' | 'Multi-AZ') =>
    commitment({
      id: `ri-${deploymentOption}`,
      contractType: 'db_ris',
      instanceType: 'db.m5.large',
      operatingSystem: 'MySQL',
      deploymentOption,
      ...ONE_YEAR_TERM,
    });

  it('covers half of it with a Single-AZ reservation of its size, and buys the other 4 units', () => {
    // Act
    const plan = highSavings([multiAz], [reservation('Single-AZ')]);

    // Assess: 4 of 8 units covered: 0.171 of 0.342; the plan's db.m5 line covers the other 4
    // units, worth 0.171 (never the whole 0.342 for 4 units).
    expect(plan.plan.commitment_coverage).toBeCloseTo(1, 12);
    expect(plan.plan.before_ondemand_cost_hourly).toBeCloseTo(0.171, 12);
    expect(plan.lineItems).toHaveLength(1);
    expect(plan.lineItems[0]?.selected_quantity).toBe(4);
    expect(plan.lineItems[0]?.covered_ondemand_cost).toBeCloseTo(0.171, 12);
  });

  it('covers all of it with a Multi-AZ reservation of its size', () => {
    const plan = highSavings([multiAz], [reservation('Multi-AZ')]);

    expect(plan.plan.commitment_coverage).toBeCloseTo(1, 12);
    expect(plan.plan.before_ondemand_cost_hourly).toBeCloseTo(0, 12);
    expect(plan.lineItems).toEqual([]);
  });

  it('buys 8 units of the Single-AZ family offer for it when nothing is owned', () => {
    const plan = highSavings([multiAz], []);

    expect(plan.lineItems).toHaveLength(1);
    expect(plan.lineItems[0]?.selected_quantity).toBe(8);
    expect(plan.lineItems[0]?.covered_ondemand_cost).toBeCloseTo(0.342, 12);
  });
});
