import { describe, expect, it } from 'vitest';
import { loadCatalog } from '../../../shared/domain/catalog/catalog';
import {
  type ChartCriterion,
  commitmentPaymentOption,
  commitmentTerm,
  filterChartInputs,
} from '../../../shared/domain/chart/chart-filter';
import { chartSeries, type ExistingCommitment } from '../../../shared/domain/engine';
import { m5LargeStream } from '../../support/usage-streams';

function commitment(id: string, changes: Partial<ExistingCommitment> = {}): ExistingCommitment {
  return {
    id,
    provider: 'aws',
    accountId: '111111111111',
    region: 'us-east-1',
    contractType: 'standard_ris',
    instanceType: 'm5.large',
    quantity: 1,
    hourlyCommitment: 0,
    upfrontCost: 0,
    recurringCost: 0.06,
    start: '2026-01-01T00:00:00Z',
    end: '2027-01-01T00:00:00Z',
    lockinEnd: '2027-01-01T00:00:00Z',
    ...changes,
  };
}

const offers = loadCatalog().offers('aws');
const streams = [
  m5LargeStream('web', [0], { instanceType: 'm5.large' }),
  m5LargeStream('db', [0], { service: 'AmazonRDS', instanceType: 'db.r5.large', operatingSystem: 'MySQL' }),
  m5LargeStream('batch', [0], { accountId: '222222222222', region: 'us-west-2', instanceType: 'c5.xlarge' }),
];
const commitments = [
  commitment('ri-m5'),
  commitment('ri-c5', {
    accountId: '222222222222',
    region: 'us-west-2',
    instanceType: 'c5.xlarge',
    upfrontCost: 500,
  }),
  commitment('plan', {
    contractType: 'compute_plans',
    region: '',
    instanceType: null,
    quantity: 0,
    hourlyCommitment: 1,
    upfrontCost: 26_280,
    recurringCost: 0,
    end: '2029-01-01T00:00:00Z',
    lockinEnd: '2029-01-01T00:00:00Z',
  }),
];

function kept(criteria: ChartCriterion[]) {
  const filtered = filterChartInputs(criteria, streams, commitments, offers);
  return {
    streams: filtered.streams.map((entry) => entry.resourceId),
    // The commitments the chart shows: those applied, narrowed to those selected.
    commitments: filtered.commitments
      .map((entry) => entry.id)
      .filter((id) => filtered.selected === null || filtered.selected.has(id)),
  };
}

describe('chart filter', () => {
  it('keeps everything without criteria', () => {
    expect(kept([])).toEqual({ streams: ['web', 'db', 'batch'], commitments: ['ri-m5', 'ri-c5', 'plan'] });
  });

  it('filters usage and commitments by account and by region, leaving out commitments not tied to a region', () => {
    expect(kept([{ field: 'account_id', op: 'eq', value: '222222222222' }])).toEqual({
      streams: ['batch'],
      commitments: ['ri-c5'],
    });
    // The compute plan covers us-west-2 too: charted against the rest alone it would cost more
    // than it covers there.
    expect(kept([{ field: 'region', op: 'ne', value: 'us-west-2' }])).toEqual({
      streams: ['web', 'db'],
      commitments: ['ri-m5'],
    });
  });

  it('filters usage by service, leaving commitments in (they have no service)', () => {
    expect(kept([{ field: 'service', op: 'in', value: ['AmazonRDS'] }])).toEqual({
      streams: ['db'],
      commitments: ['ri-m5', 'ri-c5', 'plan'],
    });
  });

  it('filters usage and reservations by instance family, leaving out plans that cover every family', () => {
    expect(kept([{ field: 'instance_family', op: 'not_in', value: ['m5', 'db.r5'] }])).toEqual({
      streams: ['batch'],
      commitments: ['ri-c5'],
    });
  });

  it('filters commitments by contract type, term and payment option, leaving usage in', () => {
    expect(kept([{ field: 'contract_type', op: 'eq', value: 'compute_plans' }])).toEqual({
      streams: ['web', 'db', 'batch'],
      commitments: ['plan'],
    });
    expect(kept([{ field: 'contract_term', op: 'eq', value: 'three_year' }]).commitments).toEqual(['plan']);
    expect(kept([{ field: 'payment_option', op: 'eq', value: 'No Upfront' }]).commitments).toEqual(['ri-m5']);
  });

  it('requires every criterion', () => {
    expect(
      kept([
        { field: 'account_id', op: 'eq', value: '111111111111' },
        { field: 'contract_type', op: 'ne', value: 'compute_plans' },
      ]),
    ).toEqual({ streams: ['web', 'db'], commitments: ['ri-m5'] });
  });

  it('reads a commitment’s payment option from what it pays and its term from the nearest catalog term', () => {
    expect(commitments.map(commitmentPaymentOption)).toEqual([
      'No Upfront',
      'Partial Upfront',
      'All Upfront',
    ]);
    expect(commitments.map((entry) => commitmentTerm(entry, offers))).toEqual([
      'one_year',
      'one_year',
      'three_year',
    ]);
    expect(commitmentTerm(commitment('gcp', { provider: 'gcp' }), offers)).toBeUndefined();
  });
});

describe('a region filter and a savings plan that covers every region', () => {
  it('never charts the plan against one region alone (no negative savings from the filter)', () => {
    // Prepare: four m5.large run every hour in each of two regions. A 1-year No Upfront compute
    // plan (27.1% off m5 Linux) of 8 x 0.096 x 0.729 = 0.559872 $/h covers all eight.
    const fleet = ['us-east-1', 'us-west-2'].map((region) =>
      m5LargeStream(`web-${region}`, new Array(24).fill(4), { region }),
    );
    const plan = commitment('plan', {
      contractType: 'compute_plans',
      region: '',
      instanceType: null,
      quantity: 0,
      hourlyCommitment: 0.559872,
      recurringCost: 0.559872,
      start: '2026-01-01T00:00:00Z',
      end: '2027-01-01T00:00:00Z',
      lockinEnd: '2027-01-01T00:00:00Z',
    });
    const chartDay = (criteria: ChartCriterion[]) => {
      const charted = filterChartInputs(criteria, fleet, [plan], offers);
      const window = { start: '2026-06-01T00:00:00Z', hours: 24 };
      const range = { startDate: '2026-06-01', endDate: '2026-06-01', today: '2026-06-30' };
      return chartSeries({ window, ...charted, offers, ...range })[0];
    };

    // Act
    const everywhere = chartDay([]);
    const east = chartDay([{ field: 'region', op: 'eq', value: 'us-east-1' }]);

    // Assess: over both regions it saves 24 x (0.768 - 0.559872) = 4.995072 a day. Against the east
    // alone it would cover 0.384 an hour for all its 0.559872; it is left out of that chart instead.
    expect(everywhere?.savings).toBeCloseTo(4.995072, 9);
    expect(east?.savings).toBe(0);
    expect(east?.remaining_commit).toBe(0);
  });
});
