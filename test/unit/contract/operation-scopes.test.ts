import { describe, expect, it } from 'vitest';
import { type OperationContract, runsWithoutAuthorizer } from '../../../shared/contract/operation-contract';
import { operationIds, operations } from '../../../shared/contract/operations';

describe('the scopes of the operations (docs/http.md)', () => {
  it('asks each operation behind the authorizer for the scope docs/http.md names, and public ones for none', () => {
    // Prepare
    const expected: Record<string, string> = {
      getRecommendedCommitmentPlan: 'plans:read', // #5
      listDefaultCommitmentPlans: 'plans:read', // #6
      listPlanLineItems: 'plans:read', // #7
      applyCommitmentPlan: 'plans:apply', // #8
      listPlanResourceMatches: 'plans:read', // #9
      getCommitmentsChart: 'plans:read', // #10
      updatePartnerSettings: 'org:write', // #11
      getRecommendedPurchasePlan: 'plans:read', // #12
      purchasePlan: 'plans:apply', // #13
      registerChildOrg: 'partner:write', // #14
      inviteChildOrgUsers: 'org:write', // #15
      registerChildViaOnboarding: 'partner:write', // #16
      startOnboarding: 'partner:write', // #17
      verifyAwsOnboarding: 'partner:write', // #18
      getAwsRoleTemplate: 'partner:write', // the onboarding role's template (an extension)
      verifyAzureOnboarding: 'partner:write', // #19
      createAzureAuthUrl: 'partner:write', // #20
      listChildOrgs: 'partner:write', // #21
      getCommitmentPlan: 'plans:read', // a plan read
      listPlanPurchases: 'plans:read', // a purchase read
    };

    const contractOf = (id: (typeof operationIds)[number]): OperationContract => operations[id];

    // Act
    const stated = Object.fromEntries(
      operationIds
        .filter((id) => !runsWithoutAuthorizer(contractOf(id)))
        .map((id) => [id, contractOf(id).scope]),
    );
    const scopedWithoutAuthorizer = operationIds.filter(
      (id) => runsWithoutAuthorizer(contractOf(id)) && contractOf(id).scope !== undefined,
    );

    // Assess
    expect(stated).toEqual(expected);
    expect(scopedWithoutAuthorizer).toEqual([]);
  });
});
