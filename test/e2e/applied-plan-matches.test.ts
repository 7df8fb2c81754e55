import { describe, expect, it, vi } from 'vitest';
import { importUsage } from '../../shared/app/import-usage';
import { createOrg, createUserKey } from '../../shared/app/operator';
import { settledPlan, useSeededApi } from '../support/seeded-api';
import { fleet, recordsOf, usageLines } from '../support/usage-files';

/**
 * Resource matches (#9) of an applied plan over part of its lookback, over HTTP against the local
 * API with its in-process purchase queue and simulated marketplace (docs/plans-api.md, Resource
 * matches). Completing the plan's purchases raises the org's plan-inputs version and stores what
 * was bought: the days asked for are still answered, as they were before the plan was applied
 * (its own purchases are not what it found owned), never a 409.
 */

// Buying line by line is slow on a loaded machine.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

const seeded = useSeededApi();
const HOUR_MS = 3_600_000;

/**
 * A new org with 30 days of usage ending at the last hour: 6 m5.xlarge always on and 4 more in
 * the first 12 hours of each day, so days differ from the lookback's mean; and an admin key.
 */
async function orgOfDailyPeaks() {
  const ctx = seeded.server.api.runtime.ctx;
  const org = await createOrg(ctx, `Applied matches ${ctx.ids.uuid()}`, null);
  const startMs = Math.floor(Date.now() / HOUR_MS) * HOUR_MS - 720 * HOUR_MS;
  const onAws = {
    provider: 'aws' as const,
    accountId: '111122223333',
    region: 'us-east-1',
    service: 'AmazonEC2',
    instanceType: 'm5.xlarge',
    operatingSystem: 'Linux',
  };
  const startHourOfDay = new Date(startMs).getUTCHours();
  await importUsage(ctx, {
    orgId: org.id,
    records: recordsOf(
      usageLines(new Date(startMs).toISOString(), 720, [
        ...fleet(6, 'base', { ...onAws, unitsAt: () => 1 }),
        ...fleet(4, 'peak', { ...onAws, unitsAt: (hour) => ((startHourOfDay + hour) % 24 < 12 ? 1 : 0) }),
      ]),
    ),
  });
  const { key } = await createUserKey(ctx, org.id, `buyer@${org.id}.example`, 'admin');
  const day = (offset: number) => new Date(startMs + offset * 24 * HOUR_MS).toISOString().slice(0, 10);
  return { plans: `/v1/org/${org.id}/commitment-plans`, apiKey: key.apiKey, day };
}

describe('resource matches of an applied plan over part of its lookback', () => {
  it('answer the days asked for once its purchases completed, as before it was applied', async () => {
    // Prepare: the Recommended plan and its matches over three whole days inside the lookback.
    const { plans, apiKey, day } = await orgOfDailyPeaks();
    const recommended = await seeded.call(`${plans}/recommended?provider=aws`, { apiKey });
    expect(recommended.status).toBe(200);
    const planId: string = recommended.body.id;
    const matchesPath = `${plans}/${planId}/resource-matches?start_date=${day(10)}&end_date=${day(12)}&page_size=100`;
    const before = await seeded.call(matchesPath, { apiKey });
    const whole = await seeded.call(
      `${plans}/${planId}/resource-matches?start_date=${day(0)}&end_date=${day(31)}&page_size=100`,
      { apiKey },
    );

    // Act: apply it and let the processor buy every line; then ask for the same days.
    const applied = await seeded.call(`${plans}/${planId}/apply`, { method: 'POST', apiKey });
    const settled = await settledPlan({ ...seeded, plansPath: plans, adminKey: apiKey }, planId);
    const after = await seeded.call(matchesPath, { apiKey });

    // Assess: the same matches, covering what they covered before the plan's purchases were owned.
    expect(before.status).toBe(200);
    expect(before.body.length).toBeGreaterThan(0);
    expect(applied.status).toBe(200);
    expect(settled.status).toBe('completed');
    expect(after.status).toBe(200);
    expect(after.body).toEqual(before.body);
    expect(
      after.body.some((match: { covered_ondemand_cost: number }) => match.covered_ondemand_cost > 0),
    ).toBe(true);
    // Peaks fill half of every day, as of the whole lookback: the days' matches are the stored
    // ones', figure for figure, and the resource reports the days asked for, as calendar dates.
    expect(whole.status).toBe(200);
    const stored = new Map(whole.body.map((match: { id: string }) => [match.id, match]));
    expect(stored.size).toBe(after.body.length);
    for (const match of after.body) {
      const same = stored.get(match.id) as { covered_ondemand_cost: number; before_cost: number };
      expect(match.covered_ondemand_cost).toBeCloseTo(same.covered_ondemand_cost, 9);
      expect(match.before_cost).toBeCloseTo(same.before_cost, 9);
      expect(match.resource.usage_start).toBe(day(10));
      expect(match.resource.usage_end).toBe(day(12));
      for (const field of ['created_at', 'updated_at'])
        expect(match.resource[field]).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    }
  });
});
