import { randomUUID } from 'node:crypto';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rebindAzureTenant } from '../../../shared/app/azure-tenant-rebind';
import { ensureOnboarding } from '../../../shared/app/onboarding';
import { createOrg, createPartner } from '../../../shared/app/operator';
import type { AppContext } from '../../../shared/app/ports';
import { NotFoundError, ValidationError } from '../../../shared/domain/errors';
import { hasProvenConsent } from '../../../shared/domain/onboarding/onboarding-record';
import { randomIds, systemClock } from '../../../shared/runtime/app-context';
import { startTestTable, type TestTable } from '../../support/dynalite';
import { provenConsent } from '../../support/proven-consent';

/** One tenant, one org (docs/onboarding.md): the bindings on DynamoDB's conditional writes. */

let table: TestTable;
let ctx: AppContext;

beforeAll(async () => {
  table = await startTestTable();
  ctx = { repos: table.store, clock: systemClock, ids: randomIds };
});

afterAll(async () => {
  await table.close();
});

const at = '2026-11-28T12:00:00.000Z';

async function twoOrgs() {
  const { org: partner } = await createPartner(ctx, `Binding Partner ${randomUUID().slice(0, 8)}`);
  const first = await createOrg(ctx, `First ${randomUUID().slice(0, 8)}`, partner.id);
  const second = await createOrg(ctx, `Second ${randomUUID().slice(0, 8)}`, partner.id);
  return [first.id, second.id] as const;
}

describe('the Azure tenant bindings', () => {
  it('let one of two orgs racing for a tenant win, every time, and keep the winner', async () => {
    for (let round = 0; round < 8; round += 1) {
      // Prepare
      const [first, second] = await twoOrgs();
      const tenantId = randomUUID();
      const subscriptionId = randomUUID();

      // Act
      const answers = await Promise.all(
        [first, second].map((orgId) => ctx.repos.azureTenants.bind({ orgId, tenantId, subscriptionId, at })),
      );

      // Assess
      expect(answers.filter((answer) => answer === null)).toHaveLength(1);
      const winner = answers[0] === null ? first : second;
      expect(await ctx.repos.azureTenants.owners(tenantId, subscriptionId)).toEqual({
        tenant: winner,
        subscription: winner,
      });
    }
  });

  it("bind the same org again, and write neither item when the subscription is another org's", async () => {
    // Prepare
    const [first, second] = await twoOrgs();
    const subscriptionId = randomUUID();
    const firstTenant = randomUUID().toUpperCase();
    await ctx.repos.azureTenants.bind({ orgId: first, tenantId: firstTenant, subscriptionId, at });
    const otherTenant = randomUUID();

    // Act
    const again = await ctx.repos.azureTenants.bind({
      orgId: first,
      tenantId: firstTenant.toLowerCase(),
      subscriptionId,
      at,
    });
    const taken = await ctx.repos.azureTenants.bind({
      orgId: second,
      tenantId: otherTenant,
      subscriptionId,
      at,
    });
    const tenantTaken = await ctx.repos.azureTenants.bind({
      orgId: second,
      tenantId: firstTenant,
      subscriptionId: randomUUID(),
      at,
    });

    // Assess
    expect([again, taken, tenantTaken]).toEqual([null, 'subscription', 'tenant']);
    expect(await ctx.repos.azureTenants.owners(otherTenant, randomUUID())).toEqual({
      tenant: null,
      subscription: null,
    });
  });

  it('accept an ID token once', async () => {
    const tokenId = randomUUID();
    expect(await ctx.repos.azureTenants.firstUseOfIdToken(tokenId, at)).toBe(true);
    expect(await ctx.repos.azureTenants.firstUseOfIdToken(tokenId, at)).toBe(false);
  });
});

describe("an operator's rebind", () => {
  it("moves the tenant and its subscriptions, keeps an audit item and withdraws the previous org's consent", async () => {
    // Prepare
    const [first, second] = await twoOrgs();
    const tenantId = randomUUID();
    const subscriptions = [randomUUID(), randomUUID()];
    for (const subscriptionId of subscriptions) {
      await ctx.repos.azureTenants.bind({ orgId: first, tenantId, subscriptionId, at });
    }
    const record = await ensureOnboarding(ctx, first);
    await ctx.repos.onboarding.update(first, record.onboardingId, {
      azure: {
        tenantId,
        subscriptionId: subscriptions[0] as string,
        consent: provenConsent(tenantId),
        verification: null,
      },
      at,
    });

    // Act
    const moved = await rebindAzureTenant(ctx, {
      tenantId,
      toOrgId: second,
      by: 'ops@example.com',
      reason: 'ticket 42',
    });

    // Assess
    expect(moved).toMatchObject({
      fromOrgId: first,
      toOrgId: second,
      subscriptionIds: [...subscriptions].sort(),
      previousConsentWithdrawn: true,
    });
    for (const subscriptionId of subscriptions) {
      expect(await ctx.repos.azureTenants.owners(tenantId, subscriptionId)).toEqual({
        tenant: second,
        subscription: second,
      });
    }
    expect(hasProvenConsent((await ctx.repos.onboarding.get(first))?.azure)).toBe(false);
    const { Items: audit } = await table.client.send(
      new QueryCommand({
        TableName: table.tableName,
        KeyConditionExpression: 'PK = :tenant AND begins_with(SK, :audit)',
        ExpressionAttributeValues: { ':tenant': `AZURE#TENANT#${tenantId}`, ':audit': 'AUDIT#' },
      }),
    );
    expect(audit).toEqual([
      expect.objectContaining({
        action: 'rebind',
        fromOrgId: first,
        toOrgId: second,
        by: 'ops@example.com',
        reason: 'ticket 42',
      }),
    ]);
    expect(
      await ctx.repos.azureTenants.bind({
        orgId: second,
        tenantId,
        subscriptionId: subscriptions[1] as string,
        at,
      }),
    ).toBeNull();
  });

  it('refuses a tenant bound to no org, an unknown org, a domain name and an empty reason', async () => {
    const [first] = await twoOrgs();
    const refusals = await Promise.allSettled([
      rebindAzureTenant(ctx, { tenantId: randomUUID(), toOrgId: first, by: 'ops', reason: 'r' }),
      rebindAzureTenant(ctx, { tenantId: randomUUID(), toOrgId: randomUUID(), by: 'ops', reason: 'r' }),
      rebindAzureTenant(ctx, { tenantId: 'contoso.onmicrosoft.com', toOrgId: first, by: 'ops', reason: 'r' }),
      rebindAzureTenant(ctx, { tenantId: randomUUID(), toOrgId: first, by: 'ops', reason: ' ' }),
    ]);
    expect(refusals.map((refusal) => (refusal as PromiseRejectedResult).reason?.constructor)).toEqual([
      NotFoundError,
      NotFoundError,
      ValidationError,
      ValidationError,
    ]);
  });
});
