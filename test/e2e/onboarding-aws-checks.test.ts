import { beforeAll, describe, expect, it } from 'vitest';
import { localServiceAccountId } from '../../local/local-onboarding';
import {
  changeSimulatedCloud,
  connectedAwsAccount,
  type SimulatedAwsAccount,
} from '../../local/simulated-cloud';
import { admin } from '../support/admin-cli';
import { itDocumentsEveryStatusAnswered } from '../support/documented-statuses';
import {
  awsFeatures,
  cur,
  deployedAwsAccount,
  onboarding,
  onboardingCalls,
  statuses,
} from '../support/onboarding-calls';
import { usePartnerTenants } from '../support/partner-tenants';

/**
 * Onboarding (#16-#21) over HTTP against the real local server on the simulated cloud: each AWS check's status on broken simulated setups.
 * One server for the file (test/support/partner-tenants.ts), each test on orgs of its own.
 */

const tenants = usePartnerTenants();
const { api } = tenants;
const { registerChild, start, verifyAws, newAccountId } = onboardingCalls(tenants);

describe('AWS checks on broken setups', () => {
  let childId: string;
  let onboardingId: string;
  let externalId: string;

  beforeAll(async () => {
    childId = await registerChild();
    onboardingId = await start(childId);
    const template = await api(onboarding(childId, 'aws/cloudformation_template'), {
      apiKey: tenants.partner.apiKey,
    });
    externalId = template.body.template.Parameters.ExternalId.Default;
  });

  const cases: [string, (account: SimulatedAwsAccount) => void, Record<string, string>][] = [
    [
      'no role',
      (a) => (a.role = null),
      { role_assumable: 'missing', cur_export: 'unknown', purchase_permission: 'unknown' },
    ],
    [
      'a wrong external id',
      (a) => {
        if (a.role) a.role.external_id = 'cpo-0000';
      },
      { role_assumable: 'missing', cur_export: 'unknown' },
    ],
    [
      'a daily export',
      (a) => ((a.exports[0] as { granularity: string }).granularity = 'DAILY'),
      { cur_hourly: 'warning', cur_export: 'available' },
    ],
    [
      'a CSV export',
      (a) => ((a.exports[0] as { format: string }).format = 'csv'),
      { cur_export: 'warning', cur_hourly: 'available' },
    ],
    [
      'no resource ids',
      (a) => ((a.exports[0] as { resource_ids: boolean }).resource_ids = false),
      { cur_resource_ids: 'missing' },
    ],
    [
      'no export',
      (a) => (a.exports = []),
      { cur_export: 'missing', cur_hourly: 'missing', cur_bucket_readable: 'available' },
    ],
    [
      'exports it may not read',
      (a) => (a.permissions.exports = false),
      { cur_export: 'unknown', cur_hourly: 'unknown', cur_delivered: 'available' },
    ],
    [
      'an unreadable bucket',
      (a) => (a.permissions.bucket = false),
      { cur_bucket_readable: 'missing', cur_delivered: 'unknown' },
    ],
    ['no bucket', (a) => (a.buckets = {}), { cur_bucket_readable: 'missing', cur_delivered: 'missing' }],
    [
      'no delivery yet',
      (a) => (a.buckets[cur.bucket] = { objects: [] }),
      { cur_bucket_readable: 'available', cur_delivered: 'missing' },
    ],
    [
      'no Cost Explorer access',
      (a) => (a.permissions.cost_explorer = false),
      { cost_explorer_access: 'missing' },
    ],
    [
      'no purchase permission',
      (a) => (a.permissions.purchase = false),
      { purchase_permission: 'missing', cur_export: 'available' },
    ],
    [
      'Cost Explorer throttled',
      (a) => (a.throttled = ['cost_explorer']),
      { cost_explorer_access: 'unknown', purchase_permission: 'available' },
    ],
    ['STS throttled', (a) => (a.throttled = ['assume_role']), { role_assumable: 'unknown' }],
  ];

  it.each(cases)(
    'with %s, answers each check as the setup allows and keeps the details',
    async (_name, breakIt, expected) => {
      // Prepare
      const accountId = newAccountId();
      await changeSimulatedCloud(tenants.server.dir, (cloud) => {
        const account = connectedAwsAccount({
          serviceAccountId: localServiceAccountId,
          externalId,
          bucket: cur.bucket,
          prefix: cur.prefix,
          reportName: cur.report_name,
        });
        breakIt(account);
        cloud.aws[accountId] = account;
      });

      // Act
      const response = await verifyAws(childId, {
        onboarding_id: onboardingId,
        account_id: accountId,
        existing_cur: cur,
      });

      // Assess
      expect(response.status).toBe(200);
      expect(response.body.map((item: { feature: string }) => item.feature)).toEqual(awsFeatures);
      expect(statuses(response.body)).toMatchObject(expected);
      for (const item of response.body) expect(item.detail).not.toBe('');
    },
  );

  it('sets an account up and breaks it with the admin CLI', async () => {
    // Prepare
    const accountId = newAccountId();
    await deployedAwsAccount(tenants.server.dir, accountId, childId);
    await admin(tenants.server.dir, [
      'simulate-cloud',
      'aws',
      '--account',
      accountId,
      '--granularity',
      'DAILY',
      '--deny',
      'purchase',
    ]);

    // Act
    const response = await verifyAws(childId, {
      onboarding_id: onboardingId,
      account_id: accountId,
      existing_cur: cur,
    });

    // Assess
    expect(statuses(response.body)).toMatchObject({
      role_assumable: 'available',
      cur_hourly: 'warning',
      purchase_permission: 'missing',
    });
  });
});

describe('documentation', () => {
  // Declared last, it runs last: it reads what every test before it was answered.
  itDocumentsEveryStatusAnswered(tenants.answered, 1);
});
