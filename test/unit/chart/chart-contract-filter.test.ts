/**
 * The chart filtered by contract type shows the selected commitments' actual share of the
 * portfolio (docs/plan-engine.md, The chart), as Cost Explorer's utilization report does, not
 * what they would do alone. Four m5.large (Linux, us-east-1, $0.096/h) run every hour; the org
 * owns 2 reserved at $0.06/h each and a one-year No Upfront Compute Savings Plan (27.1% off m5
 * Linux) of 4 x 0.096 x 0.729 = $0.279936/h, bought for all four. Reservations apply first: they
 * cover 2 instances, and the plan the other 2, $0.139968/h of its $0.279936/h: half used.
 */
import { describe, expect, it } from 'vitest';
import { loadCatalog } from '../../../shared/domain/catalog/catalog';
import { type ChartCriterion, filterChartInputs } from '../../../shared/domain/chart/chart-filter';
import { chartSeries, type ExistingCommitment } from '../../../shared/domain/engine';
import { m5LargeStream } from '../../support/usage-streams';

const offers = loadCatalog().offers('aws');
const owned: ExistingCommitment[] = [
  {
    id: 'ri',
    provider: 'aws',
    accountId: '111111111111',
    region: 'us-east-1',
    contractType: 'standard_ris',
    instanceType: 'm5.large',
    quantity: 2,
    hourlyCommitment: 0,
    upfrontCost: 0,
    recurringCost: 0.12,
    start: '2026-01-01T00:00:00Z',
    end: '2027-01-01T00:00:00Z',
    lockinEnd: '2027-01-01T00:00:00Z',
  },
  {
    id: 'plan',
    provider: 'aws',
    accountId: '111111111111',
    region: '',
    contractType: 'compute_plans',
    instanceType: null,
    quantity: 0,
    hourlyCommitment: 0.279936,
    upfrontCost: 0,
    recurringCost: 0.279936,
    start: '2026-01-01T00:00:00Z',
    end: '2027-01-01T00:00:00Z',
    lockinEnd: '2027-01-01T00:00:00Z',
  },
];
const fleet = [m5LargeStream('web', new Array(24).fill(4))];

function chartDay(criteria: ChartCriterion[]) {
  const charted = filterChartInputs(criteria, fleet, owned, offers);
  const window = { start: '2026-06-01T00:00:00Z', hours: 24 };
  const range = { startDate: '2026-06-01', endDate: '2026-06-01', today: '2026-06-30' };
  const point = chartSeries({ window, ...charted, offers, ...range })[0];
  if (!point) throw new Error('no point');
  return point;
}

describe('the chart filtered by contract type', () => {
  it('shows the savings plan half used, and the filtered charts add up to the whole portfolio', () => {
    // Act
    const whole = chartDay([]);
    const plans = chartDay([{ field: 'contract_type', op: 'eq', value: 'compute_plans' }]);
    const reservations = chartDay([{ field: 'contract_type', op: 'eq', value: 'standard_ris' }]);

    // Assess: the plan costs 24 x 0.279936 = 6.718464 a day and covers 24 x 2 x 0.096 = 4.608 of
    // on-demand value: used 3.359232 (half), savings 4.608 - 6.718464 = -2.110464. The reservations
    // cost 2.88 and cover 4.608: savings 1.728. Together: -0.382464, the whole portfolio's.
    expect(plans.utilization).toBeCloseTo(0.5, 12);
    expect(plans.unutilized_commit).toBeCloseTo(3.359232, 9);
    expect(plans.savings).toBeCloseTo(-2.110464, 9);
    expect(reservations.utilization).toBeCloseTo(1, 12);
    expect(reservations.savings).toBeCloseTo(1.728, 9);
    expect(whole.savings).toBeCloseTo(-0.382464, 9);
    expect(plans.savings + reservations.savings).toBeCloseTo(whole.savings, 9);
  });
});
