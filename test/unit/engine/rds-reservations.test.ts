/**
 * RDS reserved DB instances (docs/plan-engine.md, What a commitment covers): size flexible within a family
 * for MySQL, PostgreSQL and MariaDB, in EC2's normalization units (db.m5.large = 4).
 */
import { describe, expect, it } from 'vitest';
import { generateCommitments } from '../../../local/demo/synthetic-commitments';
import { generateFleet } from '../../../local/demo/synthetic-fleet';
import { loadCatalog } from '../../../shared/domain/catalog/catalog';
import { computePlans } from '../../../shared/domain/engine/plans/plans';
import type { OfferScope } from '../../../shared/domain/engine/shapes/model';
import { commitment, engineInput, HIGH_SAVINGS, hourly, offer, stream } from './builders';

const mysql = { service: 'AmazonRDS', operatingSystem: 'MySQL', tenancy: 'Shared' } as const;
const DB_M5_MYSQL: OfferScope = {
  kind: 'family',
  region: 'us-east-1',
  family: 'db.m5',
  operatingSystem: 'MySQL',
  tenancy: 'Shared',
};

/**
 * At 0.25 per normalized unit: a db.m5.large (4 units, p = 1) running all 10 hours and a
 * db.m5.xlarge (8 units, p = 2) running hours 0-4. Group usage U = 12 units in hours 0-4 and 4
 * in hours 5-9: F(k) = 1 for k <= 4, 0.5 for 4 < k <= 12; quantities in steps of 4 (the large).
 */
const MYSQL_FLEET = [
  stream({
    ...mysql,
    resourceId: 'db-large',
    instanceType: 'db.m5.large',
    ondemandPrice: 1,
    usage: hourly(10, () => 1),
  }),
  stream({
    ...mysql,
    resourceId: 'db-xlarge',
    instanceType: 'db.m5.xlarge',
    ondemandPrice: 2,
    usage: hourly(10, (hour) => (hour < 5 ? 1 : 0)),
  }),
];

describe('RDS reserved instances', () => {
  it.each([
    // r / p = 0.6: only the units used all the time pay (F = 1 > 0.6; 0.5 < 0.6): q = 4,
    // covered = 0.25 * 4 = 1 per hour, cost 4 * 0.15 = 0.6, savings 0.4.
    [0.15, 4, 1, 0.4],
    // r / p = 0.4: every unit pays (0.5 > 0.4): q = 12, covered = 0.25 * (12 * 5 + 4 * 5) / 10 = 2,
    // cost 12 * 0.1 = 1.2, savings 0.8.
    [0.1, 12, 2, 0.8],
  ])(
    'buys a MySQL family reservation at %d per unit: %d units, covering %d, saving %d per hour',
    (recurring, quantity, covered, savings) => {
      // Prepare
      const input = engineInput({
        hours: 10,
        streams: MYSQL_FLEET,
        offers: [offer({ id: 'db-ri', contractType: 'db_ris', scope: DB_M5_MYSQL, recurring })],
        profiles: [HIGH_SAVINGS],
      });

      // Act
      const [plan] = computePlans(input).plans;

      // Assess
      expect(plan?.lineItems).toHaveLength(1);
      const line = plan?.lineItems[0];
      expect(line?.offer.type).toBe('db_ris');
      expect(line?.selected_quantity).toBe(quantity);
      expect(line?.covered_ondemand_cost).toBeCloseTo(covered, 12);
      expect(line?.savings).toBeCloseTo(savings, 12);
    },
  );

  it('lets an existing db.m5.large reservation cover half of a MySQL db.m5.xlarge', () => {
    // Prepare: one db.m5.large RI = 4 units; the xlarge uses 8 in every hour.
    const input = engineInput({
      hours: 10,
      streams: [
        stream({
          ...mysql,
          resourceId: 'db',
          instanceType: 'db.m5.xlarge',
          ondemandPrice: 2,
          usage: hourly(10, () => 1),
        }),
      ],
      commitments: [
        commitment({
          id: 'owned',
          contractType: 'db_ris',
          instanceType: 'db.m5.large',
          operatingSystem: 'MySQL',
          quantity: 1,
        }),
      ],
      profiles: [HIGH_SAVINGS],
    });

    // Act
    const [plan] = computePlans(input).plans;

    // Assess: 4 of 8 units covered: half the on-demand value (2 per hour) is left.
    expect(plan?.plan.commitment_coverage).toBeCloseTo(0.5, 12);
    expect(plan?.plan.before_ondemand_cost_hourly).toBeCloseTo(1, 12);
  });

  it("gives the demo's AWS fleet RDS line items", () => {
    // Prepare: the demo's AWS fleet as the local seed generates it (seed `demo-aws`, 120 streams,
    // 4 commitments owned) over a 30-day window.
    const catalog = loadCatalog();
    const window = { start: '2026-06-01T00:00:00.000Z', hours: 720 };
    const streams = generateFleet({ seed: 'demo-aws', provider: 'aws', streams: 120, window, catalog });
    const commitments = generateCommitments({
      seed: 'demo-aws',
      provider: 'aws',
      streams,
      window,
      catalog,
      count: 4,
    });
    expect(streams.some((entry) => entry.service === 'AmazonRDS')).toBe(true);

    // Act
    const result = computePlans(
      engineInput({ hours: 720, window, streams, commitments, offers: [...catalog.offers('aws')] }),
    );

    // Assess: every default plan buys RDS reservations.
    for (const { plan, lineItems } of result.plans) {
      const rds = lineItems.filter((item) => item.offer.type === 'db_ris');
      expect(rds.length, plan.name).toBeGreaterThan(0);
      expect(
        rds.every((item) => item.offer.instance_family.startsWith('db.')),
        plan.name,
      ).toBe(true);
    }
  });
});
