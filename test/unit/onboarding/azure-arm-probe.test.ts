import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { azureArmProbe } from '../../../shared/cloud/verifiers/azure-arm-probe';
import { runAzureChecks } from '../../../shared/cloud/verifiers/azure-verification';
import { ProviderError } from '../../../shared/cloud/verifiers/provider-failure';

/**
 * The ARM adapter against a local HTTP server that answers as ARM does: one subscription whose
 * answers each test sets (its roles' permissions, its exports, or an ARM error).
 */

const subscriptionId = '0d6a1c2e-3b4f-4a5d-8e9f-112233445566';
const tenantId = 'contoso.onmicrosoft.com';

interface ArmState {
  consented: boolean;
  subscription: { status: number; body: unknown };
  exports: { status: number; body: unknown };
  permissions: { status: number; body: unknown };
}

let state: ArmState;
const seen: { path: string; authorization: string | undefined }[] = [];
let server: Server;
let armEndpoint: string;

const armError = (status: number, code: string, message: string) => ({
  status,
  body: { error: { code, message } },
});

beforeAll(async () => {
  server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://arm');
    seen.push({ path: `${url.pathname}?${url.searchParams}`, authorization: request.headers.authorization });
    const answer = url.pathname.endsWith('/exports')
      ? state.exports
      : url.pathname.endsWith('/permissions')
        ? state.permissions
        : url.pathname === `/subscriptions/${subscriptionId}`
          ? state.subscription
          : armError(404, 'SubscriptionNotFound', `The subscription '${url.pathname}' could not be found.`);
    response.writeHead(answer.status, { 'content-type': 'application/json; charset=utf-8' });
    response.end(JSON.stringify(answer.body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  armEndpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  seen.length = 0;
  state = {
    consented: true,
    subscription: { status: 200, body: { subscriptionId, displayName: 'Production', state: 'Enabled' } },
    exports: {
      status: 200,
      body: { value: [{ name: 'daily-actual-cost', type: 'Microsoft.CostManagement/exports' }] },
    },
    permissions: {
      status: 200,
      body: {
        value: [
          { actions: ['*/read'], notActions: [] },
          { actions: ['Microsoft.Capacity/reservationOrders/*'], notActions: [] },
          { actions: ['Microsoft.BillingBenefits/savingsPlanOrders/*'], notActions: [] },
        ],
      },
    },
  };
});

/** The identity platform's answer for the app in the tenant: a token once consented. */
async function tokens(): Promise<string> {
  if (!state.consented) {
    throw new ProviderError(
      'unauthorized_client',
      "AADSTS700016: Application with identifier 'app' was not found in the directory 'contoso.onmicrosoft.com'.",
    );
  }
  return 'token-123';
}

function verify() {
  return runAzureChecks(azureArmProbe({ tokens, armEndpoint }), { tenantId, subscriptionId, consent: null });
}

const statusOf = (items: { feature: string; status: string }[]) =>
  Object.fromEntries(items.map((item) => [item.feature, item.status]));

describe('the Azure ARM adapter', () => {
  it('reads the subscription, its exports and permissions with the tenant token', async () => {
    // Act
    const items = await verify();

    // Assess
    expect(Object.values(statusOf(items))).toEqual(Array(5).fill('available'));
    expect(new Set(seen.map((call) => call.authorization))).toEqual(new Set(['Bearer token-123']));
    expect(seen.map((call) => call.path).sort()).toEqual(
      [
        `/subscriptions/${subscriptionId}?api-version=2022-12-01`,
        `/subscriptions/${subscriptionId}/providers/Microsoft.Authorization/permissions?api-version=2022-04-01`,
        `/subscriptions/${subscriptionId}/providers/Microsoft.CostManagement/exports?api-version=2023-07-01-preview`,
      ].sort(),
    );
  });

  it('answers admin_consent missing with the identity platform message, calling ARM not at all', async () => {
    // Prepare
    state.consented = false;

    // Act
    const items = await verify();

    // Assess
    expect(items[0]).toMatchObject({ feature: 'admin_consent', status: 'missing' });
    expect(items[0]?.detail).toContain('AADSTS700016');
    expect(seen).toEqual([]);
  });

  it('answers reservation_purchase missing without the Reservation Purchaser role', async () => {
    // Prepare
    state.permissions = {
      status: 200,
      body: {
        value: [{ actions: ['*/read', 'Microsoft.BillingBenefits/savingsPlanOrders/*'], notActions: [] }],
      },
    };

    // Act
    const items = await verify();

    // Assess
    expect(statusOf(items)).toMatchObject({
      reservation_purchase: 'missing',
      savings_plan_purchase: 'available',
    });
  });

  it('maps ARM errors: a subscription not found is missing, a denied export listing and throttling unknown', async () => {
    // Prepare
    state.subscription = armError(404, 'SubscriptionNotFound', 'The subscription could not be found.');
    state.exports = armError(
      403,
      'AuthorizationFailed',
      "The client does not have authorization to perform action 'Microsoft.CostManagement/exports/read'.",
    );
    state.permissions = armError(429, 'TooManyRequests', 'Too many requests.');

    // Act
    const items = await verify();

    // Assess
    expect(statusOf(items)).toEqual({
      admin_consent: 'available',
      subscription_access: 'missing',
      cost_export: 'unknown',
      reservation_purchase: 'unknown',
      savings_plan_purchase: 'unknown',
    });
    expect(items.find((item) => item.feature === 'cost_export')?.detail).toContain('AuthorizationFailed');
  });

  it('answers cost_export missing for a subscription without exports', async () => {
    // Prepare
    state.exports = { status: 200, body: { value: [] } };

    // Act / Assess
    expect(statusOf(await verify()).cost_export).toBe('missing');
  });
});
