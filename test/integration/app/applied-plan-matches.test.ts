/**
 * A plan's resource matches over part of its lookback once it is applied (docs/plans-api.md,
 * Resource matches), on dynalite: its purchases completing raise the org's plan-inputs version and
 * store what they bought, and the plan, pinned, is never computed again. The days asked for are
 * covered again from what the org owned at the plan's time, its own purchases left out.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApplyContext, applyPlan } from '../../../shared/app/plan-application';
import { computingPlansHere } from '../../../shared/app/plan-computation';
import { listPlanResourceMatches } from '../../../shared/app/plan-resource-matches';
import type { AppContext, WithPlanComputation } from '../../../shared/app/ports';
import { type ProcessorContext, processPurchase } from '../../../shared/app/purchase-processing';
import { SimulatedMarketplace } from '../../../shared/cloud/marketplace/simulated-marketplace';
import { loadCatalog } from '../../../shared/domain/catalog/catalog';
import { ConflictError } from '../../../shared/domain/errors';
import type { PurchaseMessage } from '../../../shared/queue/purchase-queue';
import { randomIds, systemClock } from '../../../shared/runtime/app-context';
import { startTestTable, type TestTable } from '../../support/dynalite';
import { orgWithRecommendedPlan } from '../../support/planned-orgs';

let table: TestTable;
let ctx: WithPlanComputation<AppContext>;

beforeAll(async () => {
  table = await startTestTable();
  ctx = computingPlansHere({ repos: table.store, clock: systemClock, ids: randomIds });
});

afterAll(async () => {
  await table.close();
});

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const inOrder = { key: null, descending: false } as const;
/** Three whole days inside the 720-hour lookback ending now. */
const someDays = { startDate: day(-12), endDate: day(-10), order: inOrder };

/** Applies the plan and lets the processor buy each line through the simulated marketplace. */
async function buy(orgId: string, planId: string, user: Parameters<typeof applyPlan>[1]) {
  const sent: PurchaseMessage[] = [];
  const purchaseQueue = { send: async (messages: readonly PurchaseMessage[]) => void sent.push(...messages) };
  const catalog = async () => loadCatalog();
  const applying: ApplyContext = { ...ctx, purchaseQueue, catalog };
  await applyPlan(applying, user, orgId, planId);
  const processing: ProcessorContext = { ...ctx, marketplace: new SimulatedMarketplace(), catalog };
  for (const message of sent) await processPurchase(processing, message);
}

describe('resource matches of an applied plan over part of its lookback', () => {
  it('are those of before it was applied once its purchases completed, not a 409', async () => {
    // Prepare: four m5.xlarge always on; the Recommended plan covers them.
    const { orgId, planId, user } = await orgWithRecommendedPlan(ctx);
    const before = await listPlanResourceMatches(ctx, user, orgId, planId, someDays);
    const versionBefore = (await table.store.usage.usageState(orgId, 'aws'))?.usageVersion;

    // Act
    await buy(orgId, planId, user);
    const [stored] = await table.store.plans.getPlans(orgId, 'aws', [planId]);
    const after = await listPlanResourceMatches(ctx, user, orgId, planId, someDays);

    // Assess: the purchases completed and raised the version; the days' matches still cover what
    // they covered (had the plan's own commitments been owned, it would cover nothing).
    expect(stored?.plan.status).toBe('completed');
    expect((await table.store.usage.usageState(orgId, 'aws'))?.usageVersion).toBeGreaterThan(
      versionBefore ?? Number.POSITIVE_INFINITY,
    );
    expect(before.length).toBeGreaterThan(0);
    expect(before.every((match) => match.covered_ondemand_cost > 0)).toBe(true);
    expect(after).toEqual(before);
  });

  it('still answer 409 for a plan nobody applied once newer inputs replace it', async () => {
    // Prepare: a plan left `new`, and the org's inputs version raised (as a setting change does).
    const { orgId, planId, user } = await orgWithRecommendedPlan(ctx);
    await table.store.usage.raisePlanInputsVersion(orgId, 'aws', new Date().toISOString());

    // Act
    const answer = listPlanResourceMatches(ctx, user, orgId, planId, someDays);

    // Assess: its inputs are not its own any more, and it is about to be replaced.
    await expect(answer).rejects.toBeInstanceOf(ConflictError);
  });
});
