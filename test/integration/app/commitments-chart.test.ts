import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commitmentsChart } from '../../../shared/app/commitments-chart';
import { importCommitments } from '../../../shared/app/import-commitments';
import { importUsage } from '../../../shared/app/import-usage';
import { createOrg } from '../../../shared/app/operator';
import type { AppContext } from '../../../shared/app/ports';
import type { Principal } from '../../../shared/domain/principal';
import { randomIds, systemClock } from '../../../shared/runtime/app-context';
import { startTestTable, type TestTable } from '../../support/dynalite';
import {
  alwaysOn,
  commitmentHeader,
  fleet,
  gcpN2Standard8,
  linesOf,
  usageLines,
} from '../../support/usage-files';

let table: TestTable;
let ctx: AppContext;

beforeAll(async () => {
  table = await startTestTable();
  ctx = { repos: table.store, clock: systemClock, ids: randomIds };
});

afterAll(async () => {
  await table.close();
});

describe('the all-provider commitments chart', () => {
  it('projects a provider whose data lags after its own last hour, not as idle', async () => {
    // Prepare: GCP usage is stored for all of June 2026, Azure's for the 30 days up to June 20. One Azure
    // Standard_D2s_v5 (0.096 an hour on demand) runs always, under an owned 1-year reservation of
    // it at 0.0576 an hour.
    const org = await createOrg(ctx, `Chart ${randomIds.uuid()}`, null);
    const principal: Principal = {
      kind: 'user',
      orgId: org.id,
      userId: 'ada@example.com',
      role: 'admin',
      scopes: ['*'],
    };
    const gcp = fleet(1, 'gcp', {
      ...gcpN2Standard8,
      unitsAt: alwaysOn,
    });
    const azure = fleet(1, 'vm', {
      provider: 'azure',
      accountId: 'sub-1',
      region: 'eastus',
      service: 'Virtual Machines',
      instanceType: 'Standard_D2s_v5',
      operatingSystem: 'Linux',
      unitsAt: alwaysOn,
    });
    await importUsage(ctx, { orgId: org.id, lines: linesOf(usageLines('2026-06-01T00:00:00Z', 720, gcp)) });
    await importUsage(ctx, { orgId: org.id, lines: linesOf(usageLines('2026-05-22T00:00:00Z', 720, azure)) });
    const reservation = 'azure,sub-1,eastus,vm,Standard_D2s_v5,1,0,0,0.0576,2026-01-01,2027-01-01,';
    await importCommitments(ctx, { orgId: org.id, lines: linesOf([commitmentHeader, reservation]) });

    // Act: June 25, after Azure's last stored hour, before GCP's.
    const request = { criteria: [], startDate: '2026-06-25', endDate: '2026-06-25' };
    const [all] = await commitmentsChart(ctx, principal, org.id, request);
    const [azureOnly] = await commitmentsChart(ctx, principal, org.id, { ...request, provider: 'azure' });

    // Assess: the VM's average hour is covered: 24 x (0.096 - 0.0576) = 0.9216. Read as idle in
    // GCP's later window, the day would have cost 24 x 0.0576 for nothing (-1.3824).
    expect(azureOnly?.savings).toBeCloseTo(0.9216, 9);
    expect(all?.savings).toBeCloseTo(0.9216, 9);
    expect(all?.utilization).toBeCloseTo(1, 9);
  });
});
