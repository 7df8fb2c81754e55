import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalApi, startLocalApi } from '../../local/local-api';
import { localServiceAccountId } from '../../local/local-onboarding';
import { readLocalConfig } from '../../local/local-runtime';
import { changeSimulatedCloud, connectedAwsAccount } from '../../local/simulated-cloud';
import { type ApiRequest, type ApiResponse, callApi } from '../support/api-client';
import { onboarding } from '../support/onboarding-calls';

/**
 * Cost Explorer's hour is each account's own (docs/onboarding.md, Checks and statuses): verifying
 * another account in between (A, 999999999999, A...) does not make the return to A a fresh billed
 * call. Over HTTP against the local server (in this process) and its simulated cloud.
 */

let api: LocalApi;
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'e2e-cost-explorer-probe-'));
  api = await startLocalApi(readLocalConfig({ LOCAL_DIR: dir, PORT: '0', HOST: '127.0.0.1' }), {
    seedUsage: false,
  });
});

afterAll(async () => {
  await api?.close();
  await rm(dir, { recursive: true, force: true });
});

const call = (path: string, request: ApiRequest = {}): Promise<ApiResponse> =>
  callApi(api.baseUrl, path, { apiKey: api.credentials.partner.api_key, ...request });

describe('Cost Explorer probes of alternating accounts', () => {
  const cur = { region: 'us-east-1', bucket: 'child-cost-exports', prefix: 'cur', report_name: 'hourly' };

  it('answers the return to an account within its hour from its own probe, with no fresh call', async () => {
    // Prepare: a child whose account A is connected, Cost Explorer allowed
    const partnerOrgId = api.credentials.partner.org_id;
    const child = await call(onboarding(partnerOrgId, 'register_child'), {
      method: 'POST',
      json: { company: 'Alternating Accounts' },
    });
    const childId = child.body.org_id as string;
    const started = await call(onboarding(childId, 'start'), { method: 'POST' });
    const template = await call(onboarding(childId, 'aws/cloudformation_template'));
    const externalId = template.body.template.Parameters.ExternalId.Default as string;
    const accountA = '401234567890';
    const allowCostExplorer = (allowed: boolean) =>
      changeSimulatedCloud(dir, (cloud) => {
        const account = connectedAwsAccount({
          serviceAccountId: localServiceAccountId,
          externalId,
          bucket: cur.bucket,
          prefix: cur.prefix,
          reportName: cur.report_name,
        });
        account.permissions.cost_explorer = allowed;
        cloud.aws[accountA] = account;
      });
    const verify = (accountId: string) =>
      call(onboarding(childId, 'aws/verify'), {
        method: 'POST',
        json: { onboarding_id: started.body.onboarding_id, account_id: accountId, existing_cur: cur },
      });
    const costExplorerOf = (response: ApiResponse) =>
      response.body.find((item: { feature: string }) => item.feature === 'cost_explorer_access');
    await allowCostExplorer(true);

    // Act: A, then an account that is not connected, then Cost Explorer is taken away from A
    // (a call would now be refused), then A again
    const first = await verify(accountA);
    const other = await verify('999999999999');
    await allowCostExplorer(false);
    const back = await verify(accountA);

    // Assess: the return to A answers A's probe, so it made no call
    expect(costExplorerOf(first)).toMatchObject({ status: 'available', detail: 'Cost Explorer answered' });
    expect(other.status).toBe(200);
    expect(costExplorerOf(back).status).toBe('available');
    expect(costExplorerOf(back).detail).toMatch(/^Cost Explorer answered \(checked at \S+Z; /);
  });
});
