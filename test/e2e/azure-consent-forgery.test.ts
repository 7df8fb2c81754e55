import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { azureSubscriptionBindingKey, azureTenantBindingKey, onboardingKey } from '../../shared/store/keys';
import { admin, type CreatedPartner, runAdmin } from '../support/admin-cli';
import { type ApiRequest, type ApiResponse, callApi } from '../support/api-client';
import {
  azureSyncFanOut,
  consentAsAdministrator,
  nonAdministrator,
  signInRedirect,
} from '../support/azure-consent';
import { type LocalServer, startLocalServer } from '../support/local-server';
import { itemAt, type LocalStoreObserver, observeLocalStore } from '../support/local-store';
import { onboarding, simulatedAzureTenant } from '../support/onboarding-calls';

/**
 * Issue 29, section 1, reproduced step for step over HTTP against the local server, whose
 * simulated Azure tenants play the identity provider: an attacker partner claims a tenant it does
 * not own by forging the admin-consent callback. Nothing the attacker does records a consent,
 * changes the checklist or puts its org in the usage sync's fan-out; a tenant bound to another org
 * is refused at #20.
 */

let server: LocalServer;
let store: LocalStoreObserver;
let victimPartner: { orgId: string; apiKey: string };
let attacker: { orgId: string; apiKey: string };

beforeAll(async () => {
  server = await startLocalServer({ orgsOnly: true });
  store = await observeLocalStore(server.dir);
  victimPartner = { orgId: server.credentials.partner.org_id, apiKey: server.credentials.partner.api_key };
  const created = await admin<CreatedPartner>(server.dir, ['create-partner', '--name', 'Attacker Partner']);
  attacker = { orgId: created.org_id, apiKey: created.api_key };
});

afterAll(async () => {
  await store?.close();
  await server?.stop();
});

const api = (path: string, request: ApiRequest = {}): Promise<ApiResponse> =>
  callApi(server.baseUrl, path, request);
const callback = (params: Record<string, string>) =>
  `${server.baseUrl}/v2/onboarding/azure/callback?${new URLSearchParams(params).toString()}`;

async function registerChild(partner: { orgId: string; apiKey: string }): Promise<string> {
  const response = await api(onboarding(partner.orgId, 'register_child'), {
    method: 'POST',
    apiKey: partner.apiKey,
    json: { company: `Child ${randomUUID().slice(0, 8)}` },
  });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.org_id;
}

const simulatedTenant = (options: { consented: boolean }) =>
  simulatedAzureTenant(server.dir, options.consented ? ['--consent'] : []);

async function authUrl(
  partner: { orgId: string; apiKey: string },
  orgId: string,
  target: { tenantId: string; subscriptionId: string },
): Promise<ApiResponse> {
  return api(onboarding(orgId, 'azure/auth-url'), {
    method: 'POST',
    apiKey: partner.apiKey,
    json: { tenant_id: target.tenantId, subscription_id: target.subscriptionId },
  });
}

const consentLinkState = (url: string) => new URL(url).searchParams.get('state') ?? '';

/** What the attack must not change: the org's consent, its #19 checklist and the sync fan-out. */
async function observed(orgId: string, partner: { orgId: string; apiKey: string }) {
  const checklist = await api(onboarding(orgId, 'azure/verify'), { method: 'POST', apiKey: partner.apiKey });
  const snapshot = await store.snapshot();
  const azure = itemAt(snapshot, onboardingKey(orgId))?.azure as Record<string, unknown> | undefined;
  return {
    consent: azure?.consent ?? null,
    checklist: checklist.body.map((item: { feature: string; status: string }) => [item.feature, item.status]),
    fanOut: azureSyncFanOut(snapshot).includes(orgId),
  };
}

describe('a forged Azure admin consent (issue 29)', () => {
  it("refuses the victim's tenant and subscription at #20 with a 409 that does not name the victim", async () => {
    // Prepare: the victim's customer consented, its administrator signing in
    const victim = await registerChild(victimPartner);
    const tenant = await simulatedTenant({ consented: false });
    const victimLink = await authUrl(victimPartner, victim, tenant);
    const granted = await consentAsAdministrator(victimLink.body.url, tenant.tenantId);
    expect(await granted.text()).toContain('Access granted');
    const attackerChild = await registerChild(attacker);
    await api(onboarding(attackerChild, 'start'), { method: 'POST', apiKey: attacker.apiKey });

    // Act
    const sameTenant = await authUrl(attacker, attackerChild, tenant);
    const sameSubscription = await authUrl(attacker, attackerChild, {
      tenantId: 'attacker.onmicrosoft.com',
      subscriptionId: tenant.subscriptionId,
    });

    // Assess
    expect(sameTenant.status).toBe(409);
    expect(sameTenant.body.message).toContain(
      `Azure tenant ${tenant.tenantId} is connected to another organization`,
    );
    expect(sameSubscription.status).toBe(409);
    expect(sameSubscription.body.message).toContain(`subscription ${tenant.subscriptionId}`);
    expect(JSON.stringify([sameTenant.body, sameSubscription.body])).not.toContain(victim);
    const snapshot = await store.snapshot();
    expect(itemAt(snapshot, azureTenantBindingKey(tenant.tenantId))?.orgId).toBe(victim);
    expect(itemAt(snapshot, azureSubscriptionBindingKey(tenant.subscriptionId))?.orgId).toBe(victim);
    expect((await observed(attackerChild, attacker)).fanOut).toBe(false);
  });

  it('answers 400 to the forged callback, a code of another tenant, a user without an admin role and a replay, changing nothing', async () => {
    // Prepare: a tenant that consented at Microsoft, bound to no org yet, and the attacker's own tenant
    const victimTenant = await simulatedTenant({ consented: true });
    const attackerTenant = await simulatedTenant({ consented: true });
    const attackerChild = await registerChild(attacker);
    await api(onboarding(attackerChild, 'start'), { method: 'POST', apiKey: attacker.apiKey });
    const link = async () => {
      const answer = await authUrl(attacker, attackerChild, victimTenant);
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      return consentLinkState(answer.body.url);
    };
    const before = await observed(attackerChild, attacker);

    // Act 1: the reproduction: the attacker opens the callback itself, without any sign-in
    const forged = callback({ admin_consent: 'True', tenant: victimTenant.tenantId, state: await link() });
    const firstStep = await fetch(forged, { redirect: 'manual' });
    const signIn = new URL(firstStep.headers.get('location') ?? '');
    const noSignIn = await fetch(
      callback({ code: 'forged-code', state: signIn.searchParams.get('state') ?? '' }),
    );
    const afterForgery = await observed(attackerChild, attacker);

    // Act 2: a code the attacker's own tenant issued, for the victim tenant's sign-in
    const second = await signInRedirect(
      callback({ admin_consent: 'True', tenant: victimTenant.tenantId, state: await link() }),
    );
    const ownTenantSignIn = new URL(
      second.toString().replace(victimTenant.tenantId, attackerTenant.tenantId),
    );
    ownTenantSignIn.searchParams.set('login', `admin@${attackerTenant.tenantId.slice(0, 8)}.onmicrosoft.com`);
    const otherTenantCode = await fetch(ownTenantSignIn);

    // Act 3: a user of the victim tenant without an admin role, then the same answer again
    const third = await signInRedirect(
      callback({ admin_consent: 'True', tenant: victimTenant.tenantId, state: await link() }),
    );
    third.searchParams.set('login', nonAdministrator(victimTenant.tenantId));
    const userAnswer = await fetch(third, { redirect: 'manual' });
    const userCallback = userAnswer.headers.get('location') ?? '';
    const notAdmin = await fetch(userCallback);
    const replayed = await fetch(userCallback);

    // Assess
    expect(firstStep.status).toBe(302);
    expect(signIn.pathname).toBe(`/local/azure/${victimTenant.tenantId}/oauth2/v2.0/authorize`);
    expect(signIn.searchParams.get('code_challenge_method')).toBe('S256');
    expect(signIn.searchParams.get('nonce')).toBeTruthy();
    expect(noSignIn.status).toBe(400);
    expect(await noSignIn.text()).toContain('code_refused');
    expect(afterForgery).toEqual(before);
    expect(otherTenantCode.status).toBe(400);
    expect(await otherTenantCode.text()).toContain('code_refused');
    expect(notAdmin.status).toBe(400);
    expect(await notAdmin.text()).toContain('not_tenant_admin');
    expect(replayed.status).toBe(400);
    expect(await replayed.text()).toContain('no longer valid');
    expect(before.consent).toBeNull();
    expect(before.checklist[0]).toEqual(['admin_consent', 'missing']);
    expect(before.fanOut).toBe(false);
    expect(await observed(attackerChild, attacker)).toEqual(before);
    expect(itemAt(await store.snapshot(), azureTenantBindingKey(victimTenant.tenantId))).toBeUndefined();
  });

  it("lets an operator move a bound tenant to another org, with an audit line, after which the first org's consent no longer counts", async () => {
    // Prepare: the tenant bound to the victim's org by its administrator's consent
    const victim = await registerChild(victimPartner);
    const tenant = await simulatedTenant({ consented: false });
    const victimLink = await authUrl(victimPartner, victim, tenant);
    expect(await (await consentAsAdministrator(victimLink.body.url, tenant.tenantId)).text()).toContain(
      'Access granted',
    );
    const newOwner = await registerChild(attacker);
    const refused = await authUrl(attacker, newOwner, tenant);

    // Act
    const run = await runAdmin(server.dir, [
      'rebind-azure-tenant',
      '--tenant',
      tenant.tenantId,
      '--org',
      newOwner,
      '--reason',
      'the customer changed partners (ticket 4711)',
      '--by',
      'ops@example.com',
    ]);
    const accepted = await authUrl(attacker, newOwner, tenant);
    const consented = await consentAsAdministrator(accepted.body.url, tenant.tenantId);

    // Assess
    expect(refused.status).toBe(409);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({
      from_org_id: victim,
      to_org_id: newOwner,
      subscription_ids: [tenant.subscriptionId],
      previous_consent_withdrawn: true,
    });
    expect(run.stderr).toContain('"audit":"rebind-azure-tenant","by":"ops@example.com"');
    expect(accepted.status).toBe(200);
    expect(await consented.text()).toContain('Access granted');
    expect(await observed(victim, victimPartner)).toMatchObject({ consent: null, fanOut: false });
    expect(await observed(newOwner, attacker)).toMatchObject({ fanOut: true });
  });
});
