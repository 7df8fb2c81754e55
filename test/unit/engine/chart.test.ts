import { describe, expect, it } from 'vitest';
import { type ChartInput, chartSeries } from '../../../shared/domain/engine/chart/chart';
import { commitment, hourly, offer, stream, WINDOW_START } from './builders';

/**
 * Two observed days (2025-01-01 and -02): 2 units every hour of the first, none on the second, so
 * the average hour uses 1 unit. One owned RI of 1 unit at 0.5 $/h until 2025-01-11, locked in
 * until 2025-01-05. On-demand price 1.
 */
const input: ChartInput = {
  window: { start: WINDOW_START, hours: 48 },
  streams: [stream({ usage: hourly(48, (hour) => (hour < 24 ? 2 : 0)) })],
  commitments: [
    commitment({
      id: 'ri',
      quantity: 1,
      recurringCost: 0.5,
      start: '2024-12-01T00:00:00.000Z',
      end: '2025-01-11T00:00:00.000Z',
      lockinEnd: '2025-01-05T00:00:00.000Z',
    }),
  ],
  offers: [],
  startDate: '2025-01-01',
  endDate: '2025-01-04',
  today: '2025-01-02',
};

describe('chartSeries', () => {
  it('gives daily points with the portfolio, its savings and utilization, projecting after today', () => {
    // Act
    const points = chartSeries(input);

    // Assess
    expect(points).toEqual([
      // Observed: the RI covers 1 unit each hour: 24 $ of on-demand value for 12 $.
      // Remaining from Jan 1: 240 h x 0.5; locked until Jan 5: 96 h x 0.5.
      {
        date: '2025-01-01',
        remaining_commit: 120,
        locked_commit: 48,
        unlocked_commit: 72,
        savings: 12,
        net_savings: 12,
        utilization: 1,
        unutilized_commit: 0,
        is_projection: false,
      },
      // Observed: no usage, the RI is paid for nothing.
      {
        date: '2025-01-02',
        remaining_commit: 108,
        locked_commit: 36,
        unlocked_commit: 72,
        savings: -12,
        net_savings: -12,
        utilization: 0,
        unutilized_commit: 12,
        is_projection: false,
      },
      // Projected from the window's mean hour: the RI covers 1 unit in the 24 hours of 2 and
      // nothing in the 24 of 0, so half used: covers 24 x 0.5 = 12 $ for 12 $, 6 $ unused. (The
      // average hour, 1 unit, read it as used in full.)
      {
        date: '2025-01-03',
        remaining_commit: 96,
        locked_commit: 24,
        unlocked_commit: 72,
        savings: 0,
        net_savings: 0,
        utilization: 0.5,
        unutilized_commit: 6,
        is_projection: true,
      },
      {
        date: '2025-01-04',
        remaining_commit: 84,
        locked_commit: 12,
        unlocked_commit: 72,
        savings: 0,
        net_savings: 0,
        utilization: 0.5,
        unutilized_commit: 6,
        is_projection: true,
      },
    ]);
  });

  it('takes the fee of the catalog offer a guaranteed commitment was bought from out of net savings', () => {
    // Prepare: fee rate 0.25 of gross savings (24 - 12 on day 1).
    const leased = {
      ...input,
      commitments: input.commitments.map((owned) => ({ ...owned, contractType: 'leased_ris' as const })),
      offers: [offer({ id: 'leased', contractType: 'leased_ris', feeRate: 0.25 })],
      endDate: '2025-01-01',
    };

    // Act
    const [day] = chartSeries(leased);

    // Assess
    expect(day?.savings).toBe(12);
    expect(day?.net_savings).toBe(9);
  });

  it('switches to monthly points beyond 92 days, the first starting at the range start', () => {
    // Act
    const points = chartSeries({ ...input, startDate: '2025-01-15', endDate: '2025-06-30' });

    // Assess
    expect(points.map((point) => point.date)).toEqual([
      '2025-01-15',
      '2025-02-01',
      '2025-03-01',
      '2025-04-01',
      '2025-05-01',
      '2025-06-01',
    ]);
    // After the RI ends (Jan 11) nothing is committed: no remaining commitment, utilization 0.
    expect(points.slice(1).every((point) => point.remaining_commit === 0 && point.utilization === 0)).toBe(
      true,
    );
    expect(points.every((point) => point.is_projection)).toBe(true);
  });

  it('keeps utilization in [0, 1] and unlocked = remaining - locked', () => {
    // Act
    const points = chartSeries({ ...input, startDate: '2024-12-20', endDate: '2025-01-20' });

    // Assess
    for (const point of points) {
      expect(point.utilization).toBeGreaterThanOrEqual(0);
      expect(point.utilization).toBeLessThanOrEqual(1);
      expect(point.unlocked_commit).toBeCloseTo(point.remaining_commit - point.locked_commit, 9);
    }
  });
});

describe('chartSeries: dates and commitments not yet owned', () => {
  it('counts a commitment in remaining_commit only from the point it has started', () => {
    // Prepare: the RI of `input` is bought on 2025-01-03 instead, for 8 days at 0.5 $/h.
    const later = commitment({
      id: 'later',
      recurringCost: 0.5,
      start: '2025-01-03T00:00:00.000Z',
      end: '2025-01-11T00:00:00.000Z',
      lockinEnd: '2025-01-05T00:00:00.000Z',
    });

    // Act
    const points = chartSeries({ ...input, commitments: [later] });

    // Assess: nothing owned on Jan 1 and 2; from Jan 3, 192 h x 0.5 remain, 48 h of them locked.
    expect(points.map((point) => point.remaining_commit)).toEqual([0, 0, 96, 84]);
    expect(points.map((point) => point.locked_commit)).toEqual([0, 0, 24, 12]);
  });

  it('dates monthly points of years below 100 in those years, not in the 1900s', () => {
    // Act: a whole year 50, monthly points (more than 92 days).
    const points = chartSeries({ ...input, commitments: [], startDate: '0050-01-01', endDate: '0050-12-31' });

    // Assess
    expect(points.map((point) => point.date)).toEqual(
      Array.from({ length: 12 }, (_, month) => `0050-${String(month + 1).padStart(2, '0')}-01`),
    );
  });
});

describe('chartSeries: providers with windows of their own', () => {
  it('projects a provider whose data lags after its own last hour instead of reading it as idle', () => {
    // Prepare: AWS usage is stored up to 2025-01-02 (the charted window); Azure's only up to
    // 2024-12-31, two days earlier. Its VM ran 2 units on Dec 30 and none on Dec 31, beside an
    // owned reservation of 1 unit.
    const azureVm = stream({
      resourceId: 'vm',
      provider: 'azure',
      region: 'eastus',
      service: 'Virtual Machines',
      instanceType: 'Standard_X1',
      operatingSystem: 'Linux',
      usage: hourly(48, (hour) => (hour < 24 ? 2 : 0)),
    });
    const azureRi = commitment({
      id: 'azure-ri',
      provider: 'azure',
      region: 'eastus',
      contractType: 'vm',
      instanceType: 'Standard_X1',
      recurringCost: 0.5,
    });
    const both = {
      ...input,
      streams: [...input.streams, azureVm],
      commitments: [...input.commitments, azureRi],
      startDate: '2025-01-02',
      endDate: '2025-01-02',
    };

    // Act
    const [day] = chartSeries({
      ...both,
      windows: { azure: { start: '2024-12-30T00:00:00.000Z', hours: 48 } },
    });

    // Assess: on Jan 2 the AWS RI covers nothing observed (0 - 12, 0 of 12 used); the Azure one its
    // mean hour, 1 unit in half of the window's hours: 12 - 12, 6 of 12 used. Read as observed zero
    // usage, it would have saved -12 too, and used nothing.
    expect(day?.savings).toBeCloseTo(-12 + 0, 9);
    expect(day?.utilization).toBeCloseTo(6 / 24, 9);
  });
});

describe('chartSeries: after a purchase', () => {
  it('projects an always-on fleet its purchase covers exactly as fully used, and covers no hour before it', () => {
    // Prepare: two Linux m5.xlarge (8 normalized units each, 0.192 $/h) run every hour of the
    // 48-hour window (Jan 1 and 2). Two hours after it ends, the org buys the plan's line: one
    // m5.2xlarge reservation (16 units: the whole fleet) at 0.2 $/h for a year.
    const fleet = [0, 1].map((n) =>
      stream({
        resourceId: `web-${n}`,
        instanceType: 'm5.xlarge',
        operatingSystem: 'Linux',
        ondemandPrice: 0.192,
        usage: hourly(48, () => 1),
      }),
    );
    const bought = commitment({
      id: 'bought',
      instanceType: 'm5.2xlarge',
      operatingSystem: 'Linux',
      tenancy: 'Shared',
      recurringCost: 0.2,
      start: '2025-01-03T02:00:00.000Z',
      end: '2026-01-03T02:00:00.000Z',
      lockinEnd: '2026-01-03T02:00:00.000Z',
    });

    // Act
    const points = chartSeries({
      window: { start: WINDOW_START, hours: 48 },
      streams: fleet,
      commitments: [bought],
      offers: [],
      startDate: '2025-01-02',
      endDate: '2025-01-04',
      today: '2025-01-03',
    });

    // Assess: Jan 2 (observed) owned nothing. Jan 3: from 02:00 the reservation covers the average
    // hour, 16 of 16 units: 22 h x (2 x 0.192 - 0.2) = 22 x 0.184 = 4.048 saved, all of it used.
    // Jan 4 (projected): 24 x 0.184 = 4.416; 8738 hours remain (364 days and 2 hours) x 0.2.
    expect(points.map((point) => point.utilization)).toEqual([0, 1, 1]);
    expect(points[0]?.savings).toBe(0);
    expect(points[1]?.savings).toBeCloseTo(4.048, 9);
    expect(points[2]?.savings).toBeCloseTo(4.416, 9);
    expect(points.map((point) => point.unutilized_commit)).toEqual([0, 0, 0]);
    expect(points[2]?.remaining_commit).toBeCloseTo(8738 * 0.2, 9);
    expect(points.map((point) => point.is_projection)).toEqual([false, false, true]);
  });
});
