import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refreshCatalog } from '../../../shared/app/catalog-refresh';
import { getRecommendedPlan } from '../../../shared/app/commitment-plans';
import { importUsage } from '../../../shared/app/import-usage';
import { createOrg } from '../../../shared/app/operator';
import { computingPlansHere } from '../../../shared/app/plan-computation';
import type { AppContext, WithPlanComputation } from '../../../shared/app/ports';
import { directoryPriceListFiles } from '../../../shared/cloud/prices/price-list-files';
import type { Principal } from '../../../shared/domain/principal';
import { randomIds, systemClock } from '../../../shared/runtime/app-context';
import { startTestTable, type TestTable } from '../../support/dynalite';
import { PRICE_FIXTURES_DIR, quiet } from '../../support/price-list-fixtures';
import { alwaysOn, fleet, recordsOf, usageLines } from '../../support/usage-files';

let table: TestTable;
let ctx: WithPlanComputation<AppContext>;

beforeAll(async () => {
  table = await startTestTable();
  ctx = computingPlansHere({ repos: table.store, clock: systemClock, ids: randomIds });
});

afterAll(async () => {
  await table.close();
});

const both = { providers: ['aws', 'azure'] as const };

/** An org running four t2.micro always on in us-east-1: a type the bundled table does not price. */
async function t2Org(): Promise<{ orgId: string; user: Principal }> {
  const org = await createOrg(ctx, `t2 ${ctx.ids.uuid()}`, null);
  const start = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000 - 720 * 3_600_000).toISOString();
  await importUsage(ctx, {
    orgId: org.id,
    records: recordsOf(
      usageLines(
        start,
        720,
        fleet(4, 't2', {
          provider: 'aws',
          accountId: '111122223333',
          region: 'us-east-1',
          service: 'AmazonEC2',
          instanceType: 't2.micro',
          operatingSystem: 'Linux',
          unitsAt: alwaysOn,
        }),
      ),
    ),
  });
  const user: Principal = {
    kind: 'user',
    orgId: org.id,
    userId: 'ada@example.com',
    role: 'user',
    scopes: ['*'],
  };
  return { orgId: org.id, user };
}

describe('catalog refresh', () => {
  it('keeps the bundled catalog when the lists cannot be read, and says why', async () => {
    const answer = await refreshCatalog(
      ctx,
      directoryPriceListFiles(join(tmpdir(), 'no-such-dir')),
      both,
      quiet,
    );
    expect(answer).toMatchObject({ outcome: 'kept', catalog_version: 'bundled' });
    expect(answer.reasons[0]).toMatch(/could not be read: AWS price list: no \/offers\/v1.0\/aws\/AmazonEC2/);
    expect(await table.store.catalog.current()).toBeUndefined();
  });

  it('stores each region under a new version, makes it current, and plans price at the listed rates', async () => {
    const answer = await refreshCatalog(ctx, directoryPriceListFiles(PRICE_FIXTURES_DIR), both, quiet);
    expect(answer).toMatchObject({ outcome: 'refreshed', prices_moved: ['aws', 'azure'] });
    expect(answer.regions.map((r) => `${r.provider} ${r.region}`)).toEqual([
      'aws us-east-1',
      'aws eu-west-2',
      'azure eastus',
      'azure westeurope',
    ]);
    const current = await table.store.catalog.current();
    expect(current?.version).toBe(answer.catalog_version);
    const stored = await table.store.catalog.loadRegion(answer.catalog_version, 'aws', 'us-east-1');
    expect(stored?.instances.find((i) => i.instanceType === 't2.micro')?.ondemand).toBe(0.0116);

    // A t2 fleet priced from the stored list: before the refresh its rows had no price at all.
    const { orgId, user } = await t2Org();
    const plan = await getRecommendedPlan(ctx, user, orgId, 'aws');
    expect(plan?.before_ondemand_cost_hourly).toBeCloseTo(4 * 0.0116, 9);
    expect(plan?.savings_hourly).toBeGreaterThan(0);
    expect((plan as { catalog_version?: string } | null)?.catalog_version).toBe(answer.catalog_version);
  });

  it('keeps the last good catalog when a region prices fell by more than half', async () => {
    const before = await table.store.catalog.current();
    const dir = await mkdtemp(join(tmpdir(), 'prices-'));
    try {
      await cp(PRICE_FIXTURES_DIR, dir, { recursive: true });
      const csv = join(dir, 'offers/v1.0/aws/AmazonEC2/20241118210538/eu-west-2/index.csv');
      const text = await readFile(csv, 'utf8');
      // Every on-demand price divided by ten.
      await writeFile(
        csv,
        text.replace(
          /"OnDemand",(.*?),"Hrs","(\d+\.\d+)"/g,
          (_all, middle, price) => `"OnDemand",${middle},"Hrs","${Number(price) / 10}"`,
        ),
      );
      const answer = await refreshCatalog(ctx, directoryPriceListFiles(dir), both, quiet);
      expect(answer.outcome).toBe('kept');
      expect(answer.reasons).toEqual([
        'aws eu-west-2: on-demand prices fell by 90% against the current catalog',
      ]);
      expect(await table.store.catalog.current()).toEqual(before);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('moves no plan when the same lists are read again', async () => {
    const answer = await refreshCatalog(ctx, directoryPriceListFiles(PRICE_FIXTURES_DIR), both, quiet);
    expect(answer).toMatchObject({ outcome: 'refreshed', prices_moved: [], plan_inputs_raised: 0 });
  });
});
