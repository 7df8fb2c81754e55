import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listDefaultPlans } from '../../../shared/app/commitment-plans';
import { commitmentsChart } from '../../../shared/app/commitments-chart';
import { importCommitments } from '../../../shared/app/import-commitments';
import { importUsage } from '../../../shared/app/import-usage';
import { createOrg } from '../../../shared/app/operator';
import { type ApplyContext, applyPlan } from '../../../shared/app/plan-application';
import { computingPlansHere } from '../../../shared/app/plan-computation';
import type { AppContext } from '../../../shared/app/ports';
import { type ProcessorContext, processPurchase } from '../../../shared/app/purchase-processing';
import { SimulatedMarketplace } from '../../../shared/cloud/marketplace/simulated-marketplace';
import { loadCatalog } from '../../../shared/domain/catalog/catalog';
import type { Principal } from '../../../shared/domain/principal';
import type { PurchaseMessage } from '../../../shared/queue/purchase-queue';
import { randomIds, systemClock } from '../../../shared/runtime/app-context';
import { startTestTable, type TestTable } from '../../support/dynalite';
import { orgWithRecommendedPlan } from '../../support/planned-orgs';
import {
  alwaysOn,
  commitmentHeader,
  fleet,
  gcpN2Standard8,
  recordsOf,
  usageLines,
} from '../../support/usage-files';

let table: TestTable;
let ctx: AppContext;

beforeAll(async () => {
  table = await startTestTable();
  ctx = { repos: table.store, clock: systemClock, ids: randomIds };
});

afterAll(async () => {
  await table.close();
});

describe('the all-provider commitments chart', () => {
  it('projects a provider whose data lags after its own last hour, not as idle', async () => {
    // Prepare: GCP usage is stored for all of June 2026, Azure's for the 30 days up to June 20. One Azure
    // Standard_D2s_v5 (0.096 an hour on demand) runs always, under an owned 1-year reservation of
    // it at 0.0576 an hour.
    const org = await createOrg(ctx, `Chart ${randomIds.uuid()}`, null);
    const principal: Principal = {
      kind: 'user',
      orgId: org.id,
      userId: 'ada@example.com',
      role: 'admin',
      scopes: ['*'],
    };
    const gcp = fleet(1, 'gcp', {
      ...gcpN2Standard8,
      unitsAt: alwaysOn,
    });
    const azure = fleet(1, 'vm', {
      provider: 'azure',
      accountId: 'sub-1',
      region: 'eastus',
      service: 'Virtual Machines',
      instanceType: 'Standard_D2s_v5',
      operatingSystem: 'Linux',
      unitsAt: alwaysOn,
    });
    await importUsage(ctx, {
      orgId: org.id,
      records: recordsOf(usageLines('2026-06-01T00:00:00Z', 720, gcp)),
    });
    await importUsage(ctx, {
      orgId: org.id,
      records: recordsOf(usageLines('2026-05-22T00:00:00Z', 720, azure)),
    });
    const reservation = 'azure,sub-1,eastus,vm,Standard_D2s_v5,1,0,0,0.0576,2026-01-01,2027-01-01,';
    await importCommitments(ctx, { orgId: org.id, records: recordsOf([commitmentHeader, reservation]) });

    // Act: June 25, after Azure's last stored hour, before GCP's.
    const request = { criteria: [], startDate: '2026-06-25', endDate: '2026-06-25' };
    const [all] = await commitmentsChart(ctx, principal, org.id, request);
    const [azureOnly] = await commitmentsChart(ctx, principal, org.id, { ...request, provider: 'azure' });

    // Assess: the VM's mean hour (it runs every hour) is covered: 24 x (0.096 - 0.0576) = 0.9216. Read as idle in
    // GCP's later window, the day would have cost 24 x 0.0576 for nothing (-1.3824).
    expect(azureOnly?.savings).toBeCloseTo(0.9216, 9);
    expect(all?.savings).toBeCloseTo(0.9216, 9);
    expect(all?.utilization).toBeCloseTo(1, 9);
  });
});

describe('the chart after a plan is bought', () => {
  it("projects an always-on fleet the plan covered exactly as fully used, saving the plan's figures", async () => {
    // Prepare: four m5.xlarge always on for the 720 hours up to now (planned-orgs.ts); the
    // processor buys the Recommended plan's lines through the simulated marketplace.
    const planning = computingPlansHere(ctx);
    const { orgId, planId, user } = await orgWithRecommendedPlan(planning);
    const plan = (await listDefaultPlans(planning, user, orgId, 'aws')).find((entry) => entry.id === planId);
    expect(plan?.commitment_coverage).toBeCloseTo(1, 9);
    const sent: PurchaseMessage[] = [];
    const purchaseQueue = {
      send: async (messages: readonly PurchaseMessage[]) => void sent.push(...messages),
    };
    const catalog = async () => loadCatalog();
    const applying: ApplyContext = { ...planning, purchaseQueue, catalog };
    await applyPlan(applying, user, orgId, planId);
    const processing: ProcessorContext = { ...planning, marketplace: new SimulatedMarketplace(), catalog };
    for (const message of sent) await processPurchase(processing, message);

    // Act: the next three days, all projected.
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    const points = await commitmentsChart(ctx, user, orgId, {
      provider: 'aws',
      criteria: [],
      startDate: day(1),
      endDate: day(3),
    });

    // Assess: every unit bought is used, and a projected day saves 24 hours of the plan's
    // covered - amortized (net of the fee: 24 x savings_hourly).
    expect(points).toHaveLength(3);
    for (const point of points) {
      expect(point.is_projection).toBe(true);
      expect(point.utilization).toBeCloseTo(1, 9);
      expect(point.unutilized_commit).toBeCloseTo(0, 9);
      const covered = plan?.covered_ondemand_cost_hourly ?? Number.NaN;
      const amortized = plan?.amortized_cost_hourly ?? Number.NaN;
      expect(point.savings).toBeCloseTo(24 * (covered - amortized), 9);
      expect(point.net_savings).toBeCloseTo(24 * (plan?.savings_hourly ?? Number.NaN), 9);
    }
  });
});
