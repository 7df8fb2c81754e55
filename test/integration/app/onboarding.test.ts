import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAzureAuthUrl } from '../../../shared/app/azure-consent';
import {
  type OnboardingContext,
  registerChildViaOnboarding,
  startOnboarding,
  verifyAwsOnboarding,
} from '../../../shared/app/onboarding';
import { listChildOrgOverviews } from '../../../shared/app/onboarding-child-orgs';
import { createOrg, createPartner } from '../../../shared/app/operator';
import type { AppContext, AwsVerificationRequest, CloudVerifier } from '../../../shared/app/ports';
import { ForbiddenError } from '../../../shared/domain/errors';
import type { Principal } from '../../../shared/domain/principal';
import { randomIds, systemClock } from '../../../shared/runtime/app-context';
import { startTestTable, type TestTable } from '../../support/dynalite';

let table: TestTable;
// Every repository: the operators' use cases and #16 and #21 run on it too.
let ctx: OnboardingContext & AppContext & { readonly verifier: CloudVerifier };
const verified: AwsVerificationRequest[] = [];

beforeAll(async () => {
  table = await startTestTable();
  ctx = {
    repos: table.store,
    clock: systemClock,
    ids: randomIds,
    verifier: {
      async verifyAws(request) {
        verified.push(request);
        return [{ feature: 'role_assumable', status: 'available', detail: 'assumed' }];
      },
      async verifyAzure() {
        return [];
      },
    },
    onboarding: {
      serviceAwsAccountId: '111122223333',
      awsTemplateUrl: null,
      azureClientId: 'app',
      azureAuthority: 'https://login.example',
      stateSecret: async () => 'secret',
    },
  };
});

afterAll(async () => {
  await table.close();
});

const partnerWith = (orgId: string, scopes: string[]): Principal => ({ kind: 'partner', orgId, scopes });

describe('onboarding use cases', () => {
  it('create one record per org however many starts race, and verify with its external id and the fixed role', async () => {
    // Prepare
    const { org: partner } = await createPartner(ctx, 'Racing Partner');
    const child = await createOrg(ctx, 'Racing Child', partner.id);
    const caller = partnerWith(partner.id, ['*']);

    // Act
    const records = await Promise.all([1, 2, 3, 4].map(() => startOnboarding(ctx, caller, child.id)));
    await verifyAwsOnboarding(ctx, caller, child.id, {
      onboardingId: records[0]?.onboardingId ?? '',
      accountId: '444455556666',
      existingCur: null,
    });

    // Assess
    expect(new Set(records.map((record) => record.onboardingId)).size).toBe(1);
    expect(verified.at(-1)).toEqual({
      accountId: '444455556666',
      roleArn: 'arn:aws:iam::444455556666:role/commitment-planning-purchaser',
      externalId: records[0]?.externalId,
      existingCur: null,
    });
    expect((await ctx.repos.onboarding.get(child.id))?.aws?.verification?.items).toHaveLength(1);
  });

  it('refuse a token without partner:write on every endpoint, storing nothing', async () => {
    // Prepare
    const { org: partner } = await createPartner(ctx, 'Scoped Partner');
    const child = await createOrg(ctx, 'Scoped Child', partner.id);
    const readOnly = partnerWith(partner.id, ['plans:read']);

    // Act
    const attempts = await Promise.allSettled([
      registerChildViaOnboarding(ctx, readOnly, partner.id, {
        company: 'Nope',
        partnerSubscriptionId: null,
        email: null,
      }),
      startOnboarding(ctx, readOnly, child.id),
      createAzureAuthUrl(ctx, readOnly, child.id, {
        tenantId: 't',
        subscriptionId: 's',
        callbackUrl: 'https://api.example/prod/v2/onboarding/azure/callback',
      }),
      listChildOrgOverviews(ctx, readOnly, partner.id, { page: 1, pageSize: 20 }),
    ]);

    // Assess
    for (const attempt of attempts) {
      expect(attempt.status).toBe('rejected');
      expect((attempt as PromiseRejectedResult).reason).toBeInstanceOf(ForbiddenError);
    }
    expect(await ctx.repos.onboarding.get(child.id)).toBeNull();
    expect(await ctx.repos.orgs.listChildLinks(partner.id)).toHaveLength(1);
  });

  it('calls Cost Explorer once for verifications racing on an account, and again after the hour', async () => {
    // Prepare: a verifier that answers Cost Explorer itself only when not handed a result
    const { org: partner } = await createPartner(ctx, 'Billing Partner');
    const child = await createOrg(ctx, 'Billing Child', partner.id);
    const caller = partnerWith(partner.id, ['*']);
    const record = await startOnboarding(ctx, caller, child.id);
    let now = new Date('2026-11-27T10:00:00.000Z');
    let calls = 0;
    const billed = {
      ...ctx,
      clock: { now: () => now },
      verifier: {
        ...ctx.verifier,
        async verifyAws(request: AwsVerificationRequest) {
          if (request.costExplorerResult) return [request.costExplorerResult];
          calls += 1;
          return [
            {
              feature: 'cost_explorer_access',
              status: 'available' as const,
              detail: 'Cost Explorer answered',
            },
          ];
        },
      },
    };
    const verify = () =>
      verifyAwsOnboarding(billed, caller, child.id, {
        onboardingId: record.onboardingId,
        accountId: '777788889999',
        existingCur: null,
      });

    // Act
    const racing = await Promise.all([verify(), verify(), verify(), verify()]);
    const callsInTheHour = calls;
    now = new Date('2026-11-27T10:59:59.000Z');
    const late = await verify();
    now = new Date('2026-11-27T11:00:00.000Z');
    await verify();

    // Assess: one call for the four racing, none at 59:59, one at the hour
    expect(callsInTheHour).toBe(1);
    expect(racing.flat().every((item) => item.feature === 'cost_explorer_access')).toBe(true);
    expect(late[0]?.status).toBe('available');
    expect(late[0]?.detail).toContain('checked at 2026-11-27T10:00:00.000Z');
    expect(calls).toBe(2);
    expect(await ctx.repos.onboarding.getCostExplorerProbe(child.id, '777788889999')).toMatchObject({
      accountId: '777788889999',
      at: '2026-11-27T11:00:00.000Z',
    });
  });
});
