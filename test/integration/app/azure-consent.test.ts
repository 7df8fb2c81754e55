import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultSimulatedAdministrator } from '../../../local/simulated-identity-provider';
import { consentAsSimulatedTenantUser } from '../../../local/simulated-tenant-consent';
import {
  type AzureConsentContext,
  type ConsentCallback,
  completeAzureConsent,
  createAzureAuthUrl,
} from '../../../shared/app/azure-consent';
import { createOrg, createPartner } from '../../../shared/app/operator';
import type { AppContext } from '../../../shared/app/ports';
import type { Principal } from '../../../shared/domain/principal';
import { randomIds, systemClock } from '../../../shared/runtime/app-context';
import { startTestTable, type TestTable } from '../../support/dynalite';
import {
  type SimulatedIdentityServer,
  startSimulatedIdentityServer,
} from '../../support/simulated-identity-server';

/**
 * The consent's use cases on dynalite, with the simulated identity platform on a loopback port:
 * which link counts, callbacks racing with one sign-in answer, and a tenant two orgs ask for.
 */

let table: TestTable;
let identity: SimulatedIdentityServer;
let ctx: AzureConsentContext & AppContext;

beforeAll(async () => {
  [table, identity] = await Promise.all([startTestTable(), startSimulatedIdentityServer()]);
  ctx = {
    repos: table.store,
    clock: systemClock,
    ids: randomIds,
    tenantSignIn: identity.tenantSignIn,
    onboarding: {
      serviceAwsAccountId: '111122223333',
      awsTemplateUrl: null,
      azureClientId: identity.clientId,
      azureAuthority: identity.authority,
      stateSecret: async () => 'consent-test-secret',
    },
  };
});

afterAll(async () => {
  await Promise.all([table?.close(), identity?.close()]);
});

async function childWithTenant() {
  const { org: partner } = await createPartner(ctx, `Consent Partner ${randomUUID().slice(0, 8)}`);
  const child = await createOrg(ctx, `Consent Child ${randomUUID().slice(0, 8)}`, partner.id);
  const tenantId = randomUUID();
  const subscriptionId = randomUUID();
  await identity.addTenant(tenantId, subscriptionId);
  const principal: Principal = { kind: 'partner', orgId: partner.id, scopes: ['partner:write'] };
  return { partner, principal, childId: child.id, tenantId, subscriptionId };
}

/** Where a simulated page redirects, as the callback's query. */
async function follow(url: string): Promise<ConsentCallback> {
  const target = new URL(url);
  const answer = await identity.pages({
    method: 'GET',
    path: target.pathname,
    query: target.searchParams,
    body: async () => null,
  });
  const location = new URL(String(answer?.headers?.location));
  const get = (name: string) => location.searchParams.get(name) ?? undefined;
  return {
    state: get('state'),
    adminConsent: get('admin_consent'),
    tenant: get('tenant'),
    code: get('code'),
    error: get('error'),
    errorDescription: get('error_description'),
    callbackUrl: identity.callbackUrl,
  };
}

describe('the Azure consent', () => {
  it("records a consent only through the org's latest link, proven by the administrator's sign-in", async () => {
    // Prepare
    const { principal, childId, tenantId, subscriptionId } = await childWithTenant();
    const link = () =>
      createAzureAuthUrl(ctx, principal, childId, {
        tenantId,
        subscriptionId,
        callbackUrl: identity.callbackUrl,
      });
    const first = await link();
    const latest = await link();

    // Act
    const replaced = await completeAzureConsent(ctx, await follow(`${first}&decision=accept`));
    const started = await completeAzureConsent(ctx, await follow(`${latest}&decision=accept`));
    const signIn = new URL((started as { url: string }).url);
    signIn.searchParams.set('login', defaultSimulatedAdministrator(tenantId));
    const granted = await completeAzureConsent(ctx, await follow(signIn.toString()));

    // Assess
    expect(replaced.outcome).toBe('invalid');
    expect(started.outcome).toBe('sign_in');
    expect(granted).toEqual({ outcome: 'granted', tenantId });
    const azure = (await ctx.repos.onboarding.get(childId))?.azure;
    expect(azure?.consent).toMatchObject({
      granted: true,
      signedInBy: { tenantId, roleId: '62e90394-69f5-4237-9190-012177145e10' },
    });
    expect(azure?.signIn).toBeNull();
    expect(await ctx.repos.azureTenants.owners(tenantId, subscriptionId)).toEqual({
      tenant: childId,
      subscription: childId,
    });
  });

  it('records one consent when two callbacks race with one sign-in answer', async () => {
    // Prepare
    const { principal, childId, tenantId, subscriptionId } = await childWithTenant();
    const url = await createAzureAuthUrl(ctx, principal, childId, {
      tenantId,
      subscriptionId,
      callbackUrl: identity.callbackUrl,
    });
    const started = await completeAzureConsent(ctx, await follow(`${url}&decision=accept`));
    const signIn = new URL((started as { url: string }).url);
    signIn.searchParams.set('login', defaultSimulatedAdministrator(tenantId));
    const answer = await follow(signIn.toString());

    // Act
    const outcomes = await Promise.all([
      completeAzureConsent(ctx, answer),
      completeAzureConsent(ctx, answer),
    ]);

    // Assess
    expect(outcomes.map((outcome) => outcome.outcome).sort()).toEqual(['granted', 'invalid']);
    expect((await ctx.repos.onboarding.get(childId))?.azure?.consent?.granted).toBe(true);
  });

  it('answers a conflict to the second org whose customer signs in to a tenant the first holds, recording nothing', async () => {
    // Prepare: two orgs asked for the same tenant before either was bound
    const first = await childWithTenant();
    const { org: otherPartner } = await createPartner(ctx, `Other Partner ${randomUUID().slice(0, 8)}`);
    const second = await createOrg(ctx, `Other Child ${randomUUID().slice(0, 8)}`, otherPartner.id);
    const secondPrincipal: Principal = { kind: 'partner', orgId: otherPartner.id, scopes: ['partner:write'] };
    const secondUrl = await createAzureAuthUrl(ctx, secondPrincipal, second.id, {
      tenantId: first.tenantId,
      subscriptionId: randomUUID(),
      callbackUrl: identity.callbackUrl,
    });
    const secondStarted = await completeAzureConsent(ctx, await follow(`${secondUrl}&decision=accept`));
    const firstConsent = await consentAsSimulatedTenantUser(ctx, {
      principal: first.principal,
      orgId: first.childId,
      tenantId: first.tenantId,
      subscriptionId: first.subscriptionId,
      callbackUrl: identity.callbackUrl,
      pages: identity.pages,
      login: defaultSimulatedAdministrator(first.tenantId),
    });
    const signIn = new URL((secondStarted as { url: string }).url);
    signIn.searchParams.set('login', defaultSimulatedAdministrator(first.tenantId));

    // Act
    const conflict = await completeAzureConsent(ctx, await follow(signIn.toString()));

    // Assess
    expect(firstConsent.outcome).toBe('granted');
    expect(conflict.outcome).toBe('conflict');
    expect(JSON.stringify(conflict)).not.toContain(first.childId);
    expect((await ctx.repos.onboarding.get(second.id))?.azure?.consent).toBeNull();
    await expect(
      createAzureAuthUrl(ctx, secondPrincipal, second.id, {
        tenantId: first.tenantId,
        subscriptionId: randomUUID(),
        callbackUrl: identity.callbackUrl,
      }),
    ).rejects.toMatchObject({ code: 'conflict' });
  });
});
