import { expect, it } from 'vitest';
import { chartSeries } from '../../../shared/domain/engine/chart/chart';
import { commitment, hourly, stream, WINDOW_START } from './builders';

it('projects a Linux and a Windows reservation bought for a fleet of both as fully used', () => {
  // Prepare: 2 Linux m5.xlarge (16 normalized units, 0.192 $/h each) and 4 Windows m5.large
  // (0.188 $/h each) run every hour of the window. Bought 2 hours after it: one Linux m5.2xlarge
  // reservation (16 units) at 0.2 $/h and four Windows m5.large reservations at 0.1 $/h each.
  const linux = [0, 1].map((n) =>
    stream({
      resourceId: `web-${n}`,
      instanceType: 'm5.xlarge',
      operatingSystem: 'Linux',
      ondemandPrice: 0.192,
      usage: hourly(48, () => 1),
    }),
  );
  const windows = [0, 1, 2, 3].map((n) =>
    stream({
      resourceId: `win-${n}`,
      instanceType: 'm5.large',
      operatingSystem: 'Windows',
      ondemandPrice: 0.188,
      usage: hourly(48, () => 1),
    }),
  );
  const year = {
    start: '2025-01-03T02:00:00.000Z',
    end: '2026-01-03T02:00:00.000Z',
    lockinEnd: '2026-01-03T02:00:00.000Z',
  };
  const points = chartSeries({
    window: { start: WINDOW_START, hours: 48 },
    streams: [...linux, ...windows],
    commitments: [
      commitment({
        id: 'linux',
        instanceType: 'm5.2xlarge',
        operatingSystem: 'Linux',
        tenancy: 'Shared',
        recurringCost: 0.2,
        ...year,
      }),
      commitment({
        id: 'windows',
        instanceType: 'm5.large',
        operatingSystem: 'Windows',
        tenancy: 'Shared',
        quantity: 4,
        recurringCost: 0.4,
        ...year,
      }),
    ],
    offers: [],
    startDate: '2025-01-04',
    endDate: '2025-01-04',
    today: '2025-01-03',
  });
  // Jan 4: every unit used; 24 x ((0.384 - 0.2) + (0.752 - 0.4)) = 24 x 0.536 = 12.864 saved.
  expect(points[0]?.utilization).toBe(1);
  expect(points[0]?.savings).toBeCloseTo(12.864, 9);
});
