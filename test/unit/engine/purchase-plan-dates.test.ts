/**
 * The v2 purchase plan writes every date-time in one form, with milliseconds (as the clock's
 * `created_at` and every date the plan derives): a lookback window written without them, as the
 * service writes it (`2025-01-01T00:00:00Z`), gives `start_date` `2025-01-01T00:00:00.000Z` beside
 * `end_date` `2025-01-02T00:00:00.000Z`, 24 hours on.
 */
import { describe, expect, it } from 'vitest';
import { computePlans } from '../../../shared/domain/engine/plans/plans';
import { engineInput, hourly, offer, stream } from './builders';

describe('v2 purchase plan dates', () => {
  it('writes start_date and end_date in the same form, milliseconds included', () => {
    const result = computePlans(
      engineInput({
        hours: 24,
        window: { start: '2025-01-01T00:00:00Z', hours: 24 },
        streams: [stream({ usage: hourly(24, () => 2) })],
        offers: [offer({ id: 'o-m5' })],
        createdAt: '2025-01-02T01:00:00.000Z',
      }),
    );

    const plan = result.purchasePlan;
    expect([plan?.start_date, plan?.end_date]).toEqual([
      '2025-01-01T00:00:00.000Z',
      '2025-01-02T00:00:00.000Z',
    ]);
    const policy = plan?.execution_policy;
    expect([policy?.start_date, policy?.end_date, policy?.next_execution_date]).toEqual([
      '2025-01-02T01:00:00.000Z',
      '2026-01-02T01:00:00.000Z',
      '2025-04-01T00:00:00.000Z',
    ]);
  });
});
