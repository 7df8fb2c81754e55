import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  azureArmProbe,
  clientSecretTokens,
  type TokenSource,
  tokenRefreshMarginMs,
} from '../../../shared/cloud/verifiers/azure-arm-probe';
import { runAzureChecks } from '../../../shared/cloud/verifiers/azure-verification';
import { provenConsent } from '../../support/proven-consent';

/**
 * The Azure adapter against one loopback HTTP server that answers as the Microsoft identity
 * platform's token endpoint (`/{tenant}/oauth2/v2.0/token`) and as ARM do: tokens of the service's
 * app in the tenants that consented, and one subscription whose answers each test sets (its
 * roles' permissions, its exports, or an ARM error).
 */

const subscriptionId = '0d6a1c2e-3b4f-4a5d-8e9f-112233445566';
const tenantId = 'contoso.onmicrosoft.com';
const otherTenantId = 'fabrikam.onmicrosoft.com';
const clientId = '0f8fad5b-d9cb-469f-a165-70867728950e';
const clientSecret = 'app-secret~value';
const tokenLifetimeSeconds = 3599;

interface Answer {
  status: number;
  body: unknown;
}

interface ServerState {
  /** The tenants whose admin consented to the app. */
  consented: Set<string>;
  /** Answers the token endpoint gives before any other (a 5xx, an error body). */
  tokenFailures: Answer[];
  subscription: Answer;
  exports: Answer;
  permissions: Answer;
}

let state: ServerState;
const tokenRequests: { tenant: string; form: Record<string, string> }[] = [];
const armCalls: { path: string; authorization: string | undefined }[] = [];
let server: Server;
let baseUrl: string;

const armError = (status: number, code: string, message: string): Answer => ({
  status,
  body: { error: { code, message } },
});

/** The identity platform's answer for the app in a tenant whose admin has not consented. */
const unauthorizedClient = (tenant: string): Answer => ({
  status: 400,
  body: {
    error: 'unauthorized_client',
    error_description: `AADSTS700016: Application with identifier '${clientId}' was not found in the directory '${tenant}'.`,
    error_codes: [700016],
  },
});

async function formOf(request: IncomingMessage): Promise<Record<string, string>> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
}

function tokenAnswer(tenant: string, form: Record<string, string>): Answer {
  const failure = state.tokenFailures.shift();
  if (failure) return failure;
  if (form.client_id !== clientId || form.client_secret !== clientSecret) {
    return { status: 401, body: { error: 'invalid_client', error_description: 'AADSTS7000215' } };
  }
  if (!state.consented.has(tenant)) return unauthorizedClient(tenant);
  // This request is counted already: the tenant's first token is `-0`.
  const issued = tokenRequests.filter((request) => request.tenant === tenant).length - 1;
  return {
    status: 200,
    body: {
      token_type: 'Bearer',
      expires_in: tokenLifetimeSeconds,
      ext_expires_in: tokenLifetimeSeconds,
      access_token: `token-${tenant}-${issued}`,
    },
  };
}

function armAnswer(path: string): Answer {
  if (path.endsWith('/exports')) return state.exports;
  if (path.endsWith('/permissions')) return state.permissions;
  if (path === `/subscriptions/${subscriptionId}`) return state.subscription;
  return armError(404, 'SubscriptionNotFound', `The subscription '${path}' could not be found.`);
}

beforeAll(async () => {
  server = createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', 'http://loopback');
    const token = /^\/([^/]+)\/oauth2\/v2\.0\/token$/.exec(url.pathname);
    let answer: Answer;
    if (token && request.method === 'POST') {
      const tenant = decodeURIComponent(token[1] as string);
      const form = await formOf(request);
      tokenRequests.push({ tenant, form });
      answer = tokenAnswer(tenant, form);
    } else {
      armCalls.push({
        path: `${url.pathname}?${url.searchParams}`,
        authorization: request.headers.authorization,
      });
      answer = armAnswer(url.pathname);
    }
    response.writeHead(answer.status, { 'content-type': 'application/json; charset=utf-8' });
    response.end(JSON.stringify(answer.body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  tokenRequests.length = 0;
  armCalls.length = 0;
  state = {
    consented: new Set([tenantId, otherTenantId]),
    tokenFailures: [],
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

/** The service's tokens from the loopback identity platform, on a clock the test moves. */
function loopbackTokens(clock = { now: Date.now() }): TokenSource {
  return clientSecretTokens({
    clientId,
    clientSecret: async () => clientSecret,
    authority: baseUrl,
    now: () => clock.now,
  });
}

function verify(tokens: TokenSource = loopbackTokens()) {
  return runAzureChecks(azureArmProbe({ tokens, armEndpoint: baseUrl }), {
    tenantId,
    subscriptionId,
    consent: provenConsent(tenantId),
  });
}

const statusOf = (items: { feature: string; status: string }[]) =>
  Object.fromEntries(items.map((item) => [item.feature, item.status]));

describe('the Azure ARM adapter', () => {
  it('reads the subscription, its exports and permissions with the token the tenant issued', async () => {
    // Act
    const items = await verify();

    // Assess
    expect(Object.values(statusOf(items))).toEqual(Array(5).fill('available'));
    expect(new Set(armCalls.map((call) => call.authorization))).toEqual(
      new Set([`Bearer token-${tenantId}-0`]),
    );
    expect(armCalls.map((call) => call.path).sort()).toEqual(
      [
        `/subscriptions/${subscriptionId}?api-version=2022-12-01`,
        `/subscriptions/${subscriptionId}/providers/Microsoft.Authorization/permissions?api-version=2022-04-01`,
        `/subscriptions/${subscriptionId}/providers/Microsoft.CostManagement/exports?api-version=2023-07-01-preview`,
      ].sort(),
    );
  });

  it('answers admin_consent missing with the identity platform message, calling ARM not at all', async () => {
    // Prepare
    state.consented.delete(tenantId);

    // Act
    const items = await verify();

    // Assess
    expect(items[0]).toMatchObject({ feature: 'admin_consent', status: 'missing' });
    expect(items[0]?.detail).toContain('unauthorized_client');
    expect(items[0]?.detail).toContain('AADSTS700016');
    expect(armCalls).toEqual([]);
  });

  it('answers admin_consent unknown when the identity platform fails (5xx), calling ARM not at all', async () => {
    // Prepare
    state.tokenFailures.push({ status: 503, body: { message: 'Service Unavailable' } });

    // Act
    const items = await verify();

    // Assess
    expect(items[0]).toMatchObject({ feature: 'admin_consent', status: 'unknown' });
    expect(items[0]?.detail).toContain('503');
    expect(armCalls).toEqual([]);
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

describe("the service app's client-credentials tokens", () => {
  it('asks the tenant’s v2.0 token endpoint for an ARM token, with the client secret in the body', async () => {
    // Act
    const token = await loopbackTokens()(tenantId);

    // Assess
    expect(token).toBe(`token-${tenantId}-0`);
    expect(tokenRequests).toEqual([
      {
        tenant: tenantId,
        form: {
          grant_type: 'client_credentials',
          client_id: clientId,
          client_secret: clientSecret,
          scope: 'https://management.azure.com/.default',
        },
      },
    ]);
  });

  it('keeps a token per tenant, concurrent callers sharing one request', async () => {
    // Prepare
    const tokens = loopbackTokens();

    // Act
    const first = await Promise.all([tokens(tenantId), tokens(tenantId), tokens(otherTenantId)]);
    const again = await Promise.all([tokens(tenantId), tokens(otherTenantId)]);

    // Assess
    expect(first).toEqual([`token-${tenantId}-0`, `token-${tenantId}-0`, `token-${otherTenantId}-0`]);
    expect(again).toEqual([`token-${tenantId}-0`, `token-${otherTenantId}-0`]);
    expect(tokenRequests.map((request) => request.tenant).sort()).toEqual([tenantId, otherTenantId].sort());
  });

  it('asks for a new token shortly before the kept one expires', async () => {
    // Prepare
    const clock = { now: Date.parse('2025-06-01T10:00:00Z') };
    const tokens = loopbackTokens(clock);
    await tokens(tenantId);
    const renewalAt = clock.now + tokenLifetimeSeconds * 1000 - tokenRefreshMarginMs;

    // Act
    clock.now = renewalAt - 1;
    const beforeRenewal = await tokens(tenantId);
    clock.now = renewalAt;
    const atRenewal = await tokens(tenantId);

    // Assess
    expect(beforeRenewal).toBe(`token-${tenantId}-0`);
    expect(atRenewal).toBe(`token-${tenantId}-1`);
    expect(tokenRequests).toHaveLength(2);
  });

  it("rejects with the identity platform's error and description as a ProviderError", async () => {
    // Prepare
    state.consented.delete(tenantId);

    // Act / Assess
    await expect(loopbackTokens()(tenantId)).rejects.toMatchObject({
      name: 'unauthorized_client',
      message: expect.stringMatching(/^AADSTS700016: Application with identifier/),
    });
  });

  it('keeps no failure: a 5xx rejects, and the next call asks again', async () => {
    // Prepare
    const tokens = loopbackTokens();
    state.tokenFailures.push({ status: 500, body: { error: 'temporarily_unavailable' } });

    // Act
    const failure = await tokens(tenantId).catch((error: unknown) => error);
    const token = await tokens(tenantId);

    // Assess
    expect(failure).toMatchObject({ name: 'temporarily_unavailable' });
    expect(token).toBe(`token-${tenantId}-1`);
    expect(tokenRequests).toHaveLength(2);
  });

  it('sends the client secret over plain HTTP to loopback addresses only', async () => {
    // Prepare
    const tokens = clientSecretTokens({
      clientId,
      clientSecret: async () => clientSecret,
      authority: 'http://login.example.com',
    });

    // Act / Assess
    await expect(tokens(tenantId)).rejects.toThrow(/only requests to HTTPS are allowed/);
    expect(tokenRequests).toEqual([]);
  });
});
