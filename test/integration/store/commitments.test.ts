import { randomUUID } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExistingCommitment } from '../../../shared/domain/engine/shapes/model';
import { commitmentKey } from '../../../shared/store/keys';
import { startTestTable, type TestTable } from '../../support/dynalite';

function aReservation(overrides: Partial<ExistingCommitment> = {}): ExistingCommitment {
  return {
    id: randomUUID(),
    provider: 'aws',
    accountId: '111111111111',
    region: 'us-east-1',
    contractType: 'standard_ris',
    instanceType: 'm5.large',
    quantity: 4,
    hourlyCommitment: 0,
    upfrontCost: 1000,
    recurringCost: 0.1,
    start: '2026-01-01T00:00:00Z',
    end: '2027-01-01T00:00:00Z',
    lockinEnd: '2027-01-01T00:00:00Z',
    ...overrides,
  };
}

function aSavingsPlan(overrides: Partial<ExistingCommitment> = {}): ExistingCommitment {
  return aReservation({
    region: '',
    contractType: 'compute_plans',
    instanceType: null,
    quantity: 0,
    hourlyCommitment: 2.5,
    upfrontCost: 0,
    recurringCost: 2.5,
    ...overrides,
  });
}

describe('commitment repository', () => {
  let table: TestTable;

  beforeAll(async () => {
    table = await startTestTable();
  });

  afterAll(async () => {
    await table.close();
  });

  it('reads back every field, ordered by provider and end date, keyed by the end date', async () => {
    // Prepare
    const orgId = randomUUID();
    const late = aReservation({ end: '2029-01-01T00:00:00Z', lockinEnd: '2028-01-01T00:00:00Z' });
    const plan = aSavingsPlan({ end: '2026-12-31T23:00:00Z', lockinEnd: '2026-12-31T23:00:00Z' });
    const vm = aReservation({ provider: 'azure', contractType: 'vm', instanceType: 'Standard_D4s_v5' });

    // Act
    await table.store.commitments.replaceCommitments(orgId, 'azure', [vm]);
    await table.store.commitments.replaceCommitments(orgId, 'aws', [late, plan]);

    // Assess
    expect(await table.store.commitments.listCommitments(orgId)).toEqual([plan, late, vm]);
    expect(await table.store.commitments.listCommitments(orgId, 'azure')).toEqual([vm]);
    expect(await table.store.commitments.listCommitments(orgId, 'gcp')).toEqual([]);
    const { Item } = await table.client.send(
      new GetCommand({ TableName: table.tableName, Key: commitmentKey(orgId, 'aws', '2026-12-31', plan.id) }),
    );
    expect(Item).toMatchObject({ type: 'commitment', version: 1, hourlyCommitment: 2.5 });
    expect(Item).not.toHaveProperty('instanceType');
  });

  it('reads back what each commitment covers: platform, tenancy, zone, engine, deployment, family, payment, and when it was bought', async () => {
    // Prepare
    const orgId = randomUUID();
    const windows = aReservation({
      operatingSystem: 'Windows',
      tenancy: 'Dedicated',
      availabilityZone: 'us-east-1a',
      paymentOption: 'All Upfront',
      // Queued: bought before it starts (docs/plan-engine.md, Owned first).
      purchasedAt: '2025-12-01T10:00:00.000Z',
    });
    const database = aReservation({
      contractType: 'db_ris',
      instanceType: 'db.m5.large',
      operatingSystem: 'PostgreSQL',
      deploymentOption: 'Multi-AZ',
    });
    const instancePlan = aSavingsPlan({
      region: 'us-east-1',
      contractType: 'instance_plans',
      instanceFamily: 'm5',
      paymentOption: 'No Upfront',
    });
    const plain = aReservation();

    // Act
    await table.store.commitments.replaceCommitments(orgId, 'aws', [windows, database, instancePlan, plain]);
    const read = await table.store.commitments.listCommitments(orgId, 'aws');

    // Assess: each as written, and one without them still without them.
    const byId = new Map(read.map((owned) => [owned.id, owned]));
    expect(byId.get(windows.id)).toEqual(windows);
    expect(byId.get(database.id)).toEqual(database);
    expect(byId.get(instancePlan.id)).toEqual(instancePlan);
    expect(byId.get(plain.id)).toEqual(plain);
    expect(Object.keys(byId.get(plain.id) ?? {})).not.toContain('operatingSystem');
    expect(Object.keys(byId.get(plain.id) ?? {})).not.toContain('purchasedAt');
  });

  it('replaces one provider’s commitments, keeping the other providers’ and rewriting kept ones in place', async () => {
    // Prepare
    const orgId = randomUUID();
    const kept = aReservation();
    const dropped = aSavingsPlan();
    const azure = aReservation({ provider: 'azure', contractType: 'vm', instanceType: 'Standard_D4s_v5' });
    await table.store.commitments.replaceCommitments(orgId, 'aws', [kept, dropped]);
    await table.store.commitments.replaceCommitments(orgId, 'azure', [azure]);
    const added = aReservation({ instanceType: 'c5.large' });

    // Act
    await table.store.commitments.replaceCommitments(orgId, 'aws', [kept, added]);

    // Assess
    const aws = await table.store.commitments.listCommitments(orgId, 'aws');
    expect(aws.map((c) => c.id).sort()).toEqual([kept.id, added.id].sort());
    expect(await table.store.commitments.listCommitments(orgId, 'azure')).toEqual([azure]);
    const { Item } = await table.client.send(
      new GetCommand({
        TableName: table.tableName,
        Key: commitmentKey(orgId, 'aws', '2027-01-01', kept.id),
      }),
    );
    expect(Item?.version).toBe(2);
  });

  it('replaces a provider’s commitments with none', async () => {
    // Prepare
    const orgId = randomUUID();
    await table.store.commitments.replaceCommitments(orgId, 'gcp', [
      aReservation({ provider: 'gcp', region: 'us-central1', instanceType: 'n2-standard-8' }),
    ]);

    // Act
    await table.store.commitments.replaceCommitments(orgId, 'gcp', []);

    // Assess
    expect(await table.store.commitments.listCommitments(orgId)).toEqual([]);
  });

  it('refuses a commitment of another provider than the one replaced', async () => {
    await expect(
      table.store.commitments.replaceCommitments(randomUUID(), 'azure', [aReservation()]),
    ).rejects.toThrow(RangeError);
  });
});
