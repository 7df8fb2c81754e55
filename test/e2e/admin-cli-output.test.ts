import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AdminRun, runAdmin } from '../support/admin-cli';
import { type ApiRequest, type ApiResponse, callApi } from '../support/api-client';
import { type InProcessApi, startInProcessApi } from '../support/in-process-api';
import { settledPlanOf } from '../support/settled-plan';

/**
 * What every command family of the operator CLI prints, run as a process as an operator pipes it
 * into jq: exactly one JSON value on stdout, everything else (progress, the purchase processor's
 * logs when retry-purchase runs it in the CLI's process) on stderr.
 */

let server: InProcessApi;
let dir: string;

beforeAll(async () => {
  server = await startInProcessApi();
  dir = dirname(server.api.credentialsPath);
});

afterAll(async () => {
  await server?.stop();
});

const fixtures = join(import.meta.dirname, '../fixtures/import');

// The processor logs at INFO: the test process quiets the in-process server's logs to WARN.
const withInfoLogs = {
  POWERTOOLS_LOG_LEVEL: 'INFO',
  AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
};

/** The one JSON value the run printed; fails the test when stdout holds anything else. */
function onlyJsonValue(run: AdminRun): Record<string, unknown> {
  expect(run.exitCode, run.stderr).toBe(0);
  expect(run.stdout.endsWith('\n')).toBe(true);
  expect(run.stdout.trimEnd().split('\n')).toHaveLength(1);
  const value: unknown = JSON.parse(run.stdout);
  expect(typeof value === 'object' && value !== null && !Array.isArray(value)).toBe(true);
  return value as Record<string, unknown>;
}

function call(path: string, request: ApiRequest = {}): Promise<ApiResponse> {
  return callApi(server.api.baseUrl, path, request);
}

/** A failed purchase of the demo customer's recommended AWS plan: its provider refused one offer. */
async function failedPurchase(): Promise<{ planId: string; lineItemId: string }> {
  const { org } = server.api.credentials;
  const plans = `/v1/org/${org.org_id}/commitment-plans`;
  const recommended = await call(`${plans}/recommended?provider=aws`, { apiKey: org.api_key });
  const planId = recommended.body.id as string;
  const lines = await call(`${plans}/${planId}/line-items?page_size=100`, { apiKey: org.api_key });
  // biome-ignore lint/suspicious/noExplicitAny: the API's JSON
  const selected = (lines.body as any[]).find((item) => item.is_selected && item.selected_quantity > 0);
  server.api.purchasing.marketplace.failOffer(selected.offer_id, 'Offering sold out in this region');
  const applied = await call(`${plans}/${planId}/apply`, { method: 'POST', apiKey: org.api_key });
  expect(applied.status).toBe(200);
  const { status } = await settledPlanOf(() => call(`${plans}/${planId}`, { apiKey: org.api_key }));
  expect(status).toBe('needs_review');
  server.api.purchasing.marketplace.stopFailing(selected.offer_id);
  return { planId, lineItemId: selected.id as string };
}

describe('every command family prints exactly one JSON value on stdout', () => {
  it('orgs and keys, OAuth clients, imports, the simulated cloud, purchases and sync', async () => {
    // Prepare
    const { org } = server.api.credentials;
    const failed = await failedPurchase();

    // Act: three independent lines of commands at once (a new org's, reads, the demo org's),
    // each in the order its commands depend on
    const partnerAndChild = async () => {
      const partner = onlyJsonValue(
        await runAdmin(dir, ['create-partner', '--name', 'Output Partner'], withInfoLogs),
      );
      const child = onlyJsonValue(
        await runAdmin(
          dir,
          ['create-org', '--name', 'Output Child', '--partner', String(partner.org_id)],
          withInfoLogs,
        ),
      );
      const imported = onlyJsonValue(
        await runAdmin(
          dir,
          ['import-usage', '--org', String(child.org_id), '--file', join(fixtures, 'usage.csv')],
          withInfoLogs,
        ),
      );
      return { partner, child, imported };
    };
    const reads = async () => ({
      clients: onlyJsonValue(await runAdmin(dir, ['list-oauth-clients'], withInfoLogs)),
      simulated: onlyJsonValue(await runAdmin(dir, ['simulate-cloud', 'show'], withInfoLogs)),
    });
    const demoOrg = async () => {
      const retry = await runAdmin(
        dir,
        ['retry-purchase', '--plan', failed.planId, '--line', failed.lineItemId],
        withInfoLogs,
      );
      const retried = onlyJsonValue(retry);
      const deadLetters = onlyJsonValue(await runAdmin(dir, ['dead-letters'], withInfoLogs));
      const onboarding = (rest: string) => `/v2/org/${org.org_id}/partners/onboarding/${rest}`;
      const started = await call(onboarding('start'), { method: 'POST', apiKey: org.api_key });
      const cloud = server.api.credentials.cloud;
      const verified = await call(onboarding('aws/verify'), {
        method: 'POST',
        apiKey: org.api_key,
        json: {
          onboarding_id: started.body.onboarding_id,
          account_id: cloud?.aws.account_id,
          existing_cur: cloud?.aws.existing_cur,
        },
      });
      const synced = onlyJsonValue(await runAdmin(dir, ['sync', '--org', org.org_id], withInfoLogs));
      return { retry, retried, deadLetters, verified, synced };
    };
    const [
      { partner, child, imported },
      { clients, simulated },
      { retry, retried, deadLetters, verified, synced },
    ] = await Promise.all([partnerAndChild(), reads(), demoOrg()]);

    // Assess
    expect(partner).toMatchObject({ is_partner: true });
    expect(child).toMatchObject({ partner_org_id: partner.org_id });
    expect(clients.clients).toEqual(expect.any(Array));
    expect(imported).toMatchObject({ org_id: child.org_id });
    expect(simulated).toHaveProperty('aws');
    // The processor ran in the CLI's process, bought the line and logged it, on stderr.
    expect(retried).toMatchObject({
      purchase: { plan_id: failed.planId, line_item_id: failed.lineItemId, status: 'completed' },
    });
    expect(retry.stderr).toContain('purchase processed');
    expect(deadLetters).toEqual({ dead_letters: [] });
    expect(verified.status, JSON.stringify(verified.body)).toBe(200);
    expect(synced).toMatchObject({ org_id: org.org_id, providers: [{ provider: 'aws' }] });
  });
});
