import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listDefaultPlans } from '../../../shared/app/commitment-plans';
import { storeProviderUsage } from '../../../shared/app/import-usage';
import { createOrg } from '../../../shared/app/operator';
import { computingPlansHere, refreshPlans } from '../../../shared/app/plan-computation';
import type { AppContext, Clock, WithPlanComputation } from '../../../shared/app/ports';
import { repairFutureUsage } from '../../../shared/app/repair-usage';
import type { Principal } from '../../../shared/domain/principal';
import type { ProviderUsage } from '../../../shared/domain/usage/imported-usage';
import { hoursInMonth, monthStartHour } from '../../../shared/domain/usage/usage-months';
import { randomIds } from '../../../shared/runtime/app-context';
import { startTestTable, type TestTable } from '../../support/dynalite';

const clock: Clock = { now: () => new Date('2026-07-02T00:20:00Z') };

let table: TestTable;
let ctx: WithPlanComputation<AppContext>;

beforeAll(async () => {
  table = await startTestTable();
  ctx = computingPlansHere({ repos: table.store, clock, ids: randomIds });
});

afterAll(async () => {
  await table.close();
});

const HOUR_MS = 3_600_000;
const hourOf = (iso: string) => Date.parse(iso) / HOUR_MS;

/**
 * What an import stored before future rows were refused: June 2026 of an always-on VM, and one
 * row dated 2030 (a typo in the year), so the covered hours ran from June 2026 to 2030.
 */
function usageWithTypo(): ProviderUsage {
  const june = new Float64Array(hoursInMonth('2026-06')).fill(1);
  const typo = new Float64Array(hoursInMonth('2030-06'));
  typo[0] = 1;
  return {
    provider: 'gcp',
    covered: { firstHour: monthStartHour('2026-06'), lastHour: monthStartHour('2030-06') },
    rows: june.length + 1,
    series: [
      {
        resource: {
          resourceId: 'vm-1',
          provider: 'gcp',
          accountId: 'acme-prod',
          region: 'us-central1',
          service: 'Compute Engine',
          instanceType: 'n2-standard-8',
          operatingSystem: 'Linux',
          tenancy: 'Shared',
          usageType: 'running',
          usageUnit: 'Hrs',
          ondemandPrice: 0.388,
        },
        months: new Map([
          ['2026-06', june],
          ['2030-06', typo],
        ]),
      },
    ],
  };
}

async function affectedOrg(): Promise<{ orgId: string; principal: Principal }> {
  const org = await createOrg(ctx, `Typo ${randomIds.uuid()}`, null);
  await storeProviderUsage(ctx, org.id, usageWithTypo());
  return { orgId: org.id, principal: { kind: 'partner', orgId: org.id, scopes: ['*'] } };
}

describe('usage stored with a future-dated row', () => {
  it('never moves the lookback past the present hour', async () => {
    // Prepare
    const { orgId } = await affectedOrg();

    // Act
    const refresh = await refreshPlans(ctx, orgId, 'gcp');
    const planId = refresh.planSet?.computed?.planIds[0] as string;
    const content = await ctx.repos.plans.planContent(orgId, planId);

    // Assess: 00:20 on July 2 plus one hour of skew: the last hour is 01:00, 720 hours back is 02:00 on June 2.
    expect((await ctx.repos.usage.usageState(orgId, 'gcp'))?.lastHour).toBe('2030-06-01T00:00:00Z');
    expect(content?.window).toEqual({ start: '2026-06-02T02:00:00Z', hours: 720 });
  });

  it('is repaired: hours after the present one dropped, the last hour set to the last one with usage, plans computed again', async () => {
    // Prepare
    const { orgId, principal } = await affectedOrg();
    const before = await listDefaultPlans(ctx, principal, orgId, 'gcp');

    // Act
    const repair = await repairFutureUsage(ctx, orgId, 'gcp');
    const again = await repairFutureUsage(ctx, orgId, 'gcp');
    const after = await listDefaultPlans(ctx, principal, orgId, 'gcp');
    const content = await ctx.repos.plans.planContent(orgId, after[0]?.id as string);

    // Assess
    expect(repair).toEqual({
      orgId,
      provider: 'gcp',
      repaired: true,
      keptUntil: '2026-07-02T01:00:00Z',
      lastHour: '2026-06-30T23:00:00Z',
      usageVersion: 2,
    });
    expect(again).toMatchObject({ repaired: false, lastHour: '2026-06-30T23:00:00Z', usageVersion: 2 });
    const state = await ctx.repos.usage.usageState(orgId, 'gcp');
    expect(state).toMatchObject({ firstHour: '2026-06-01T00:00:00Z', lastHour: '2026-06-30T23:00:00Z' });
    expect(state?.importSession).toBeNull();
    expect(
      await ctx.repos.usage.loadUsage(orgId, 'gcp', { start: '2030-06-01T00:00:00Z', hours: 24 }),
    ).toEqual([]);
    expect(content?.window).toEqual({ start: '2026-06-01T00:00:00Z', hours: 720 });
    expect(after.map((plan) => plan.is_calculating)).toEqual([false, false, false]);
    expect(after.map((plan) => plan.id)).not.toEqual(before.map((plan) => plan.id));
    expect(hourOf(repair.lastHour as string)).toBe(monthStartHour('2026-07') - 1);
  });
});
