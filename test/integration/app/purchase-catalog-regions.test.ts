import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApplyContext, applyPlan } from '../../../shared/app/plan-application';
import { computingPlansHere } from '../../../shared/app/plan-computation';
import type { AppContext, WithPlanComputation } from '../../../shared/app/ports';
import { type ProcessorContext, processPurchase } from '../../../shared/app/purchase-processing';
import { purchasingCatalog } from '../../../shared/app/stored-catalog';
import { SimulatedMarketplace } from '../../../shared/cloud/marketplace/simulated-marketplace';
import { SPEND_ACROSS_REGIONS } from '../../../shared/domain/engine/shapes/model';
import type { PurchaseMessage } from '../../../shared/queue/purchase-queue';
import { randomIds, systemClock } from '../../../shared/runtime/app-context';
import { catalogReads, queriedPartitions, storeRecordedCatalog } from '../../support/catalog-reads';
import { startTestTable, type TestTable } from '../../support/dynalite';
import { orgWithRecommendedPlan } from '../../support/planned-orgs';

/** Each test stores the catalog under a version of its own: a process keeps the lists it loaded, by version. */
const versionOf = (test: string) => `purchase-regions-${test}`;

let table: TestTable;
let base: WithPlanComputation<AppContext>;

beforeAll(async () => {
  table = await startTestTable();
  base = computingPlansHere({ repos: table.store, clock: systemClock, ids: randomIds });
});

afterAll(async () => {
  await table.close();
});

describe('the catalog purchases read', () => {
  it("loads the stored list of the purchase's region only, with that region's offers", async () => {
    // Prepare: four regions stored (aws us-east-1 and eu-west-2, azure eastus and westeurope).
    const version = versionOf('one');
    const lists = await storeRecordedCatalog(table.store, version);
    const partitions = queriedPartitions(table);

    // Act
    const catalog = await purchasingCatalog(table.store.catalog)([{ provider: 'aws', region: 'us-east-1' }]);

    // Assess
    expect(catalogReads(partitions, lists, version)).toEqual(['aws us-east-1']);
    const regions = new Set(
      catalog.offers('aws').flatMap((offer) => (offer.scope.kind === 'spend' ? [] : [offer.scope.region])),
    );
    expect(regions.has('us-east-1')).toBe(true);
    expect(regions.has('eu-west-2')).toBe(false);
  });

  it('loads every stored region of the provider, and no other, for a savings plan across regions', async () => {
    // Prepare
    const version = versionOf('across');
    const lists = await storeRecordedCatalog(table.store, version);
    const partitions = queriedPartitions(table);

    // Act
    await purchasingCatalog(table.store.catalog)([{ provider: 'aws', region: SPEND_ACROSS_REGIONS }]);

    // Assess
    expect(catalogReads(partitions, lists, version)).toEqual(['aws us-east-1', 'aws eu-west-2']);
  });

  it('applies and buys an AWS plan reading no list of another region than its purchases', async () => {
    // Prepare: an org's plan of us-east-1 priced with the stored catalog (which loads that region).
    const version = versionOf('flow');
    const lists = await storeRecordedCatalog(table.store, version);
    const { orgId, planId, user } = await orgWithRecommendedPlan(base);
    const partitions = queriedPartitions(table);
    const sent: PurchaseMessage[] = [];
    const queue = { send: async (messages: readonly PurchaseMessage[]) => void sent.push(...messages) };
    const catalog = purchasingCatalog(table.store.catalog);
    const applying: ApplyContext = { ...base, purchaseQueue: queue, catalog };
    const processing: ProcessorContext = { ...base, marketplace: new SimulatedMarketplace(), catalog };

    // Act
    await applyPlan(applying, user, orgId, planId);
    for (const message of sent) await processPurchase(processing, message);

    // Assess: every purchase, all in us-east-1, bought; no list read (us-east-1's was loaded by
    // the plan computation and is kept), neither eu-west-2's nor Azure's.
    const records = await table.store.purchases.listByPlan(planId);
    expect(records.length).toBeGreaterThan(0);
    expect(records.every((record) => record.status === 'completed' && record.region === 'us-east-1')).toBe(
      true,
    );
    expect(catalogReads(partitions, lists, version)).toEqual([]);
  });
});
