import { describe, expect, expectTypeOf, it } from 'vitest';
import type { BodyOf, PathParamsOf, QueryOf, ResponseOf } from '../../../shared/contract/operation-contract';
import { type OperationId, operationIds, operations, routes } from '../../../shared/contract/operations';
import type { LineItemSortField } from '../../../shared/contract/plan-queries';
import type { CommitmentPlan } from '../../../shared/contract/plans';

describe('operation registry', () => {
  it('holds the 21 endpoints of the spec, the protected-resource metadata, the OpenAPI document, the purchase reads, the OAuth server around #1 and #2 and the onboarding additions', () => {
    // Assess
    expect([...operationIds].sort()).toEqual(
      [
        'authorize',
        'issueToken',
        'getAuthorizationServerMetadata',
        'getJwks',
        'getProtectedResourceMetadata',
        'getRecommendedCommitmentPlan',
        'listDefaultCommitmentPlans',
        'listPlanLineItems',
        'applyCommitmentPlan',
        'listPlanResourceMatches',
        'getCommitmentsChart',
        'updatePartnerSettings',
        'getRecommendedPurchasePlan',
        'purchasePlan',
        'registerChildOrg',
        'inviteChildOrgUsers',
        'registerChildViaOnboarding',
        'startOnboarding',
        'verifyAwsOnboarding',
        'verifyAzureOnboarding',
        'createAzureAuthUrl',
        'listChildOrgs',
        'getOpenApiDocument',
        'getCommitmentPlan',
        'listPlanPurchases',
        'showSignInPage',
        'requestSignInCode',
        'verifySignInCode',
        'restartSignIn',
        'decideAuthorization',
        'revokeToken',
        'registerClient',
        'getAwsRoleTemplate',
        'completeAzureConsent',
      ].sort(),
    );
  });

  it('serves each method and path once', () => {
    // Act
    const keys = operationIds.map((id) => `${operations[id].method} ${operations[id].path}`);

    // Assess
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('validates exactly the parameters its path template names, as UUIDs', () => {
    for (const id of operationIds) {
      // Prepare
      const operation = operations[id];
      const named = [...operation.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]);

      // Act
      const validated =
        'pathParams' in operation ? Object.keys(operation.pathParams._zod.innerType.shape) : [];

      // Assess
      expect(validated, id).toEqual(named);
      if ('pathParams' in operation) {
        const notUuid = Object.fromEntries(validated.map((name) => [name, 'not-a-uuid']));
        expect(operation.pathParams.safeParse(notUuid).error?.issues, id).toHaveLength(validated.length);
      }
    }
  });

  it('makes public only the discovery documents, the OpenAPI document and the Azure consent callback', () => {
    // Act
    const publicIds = operationIds.filter((id) => operations[id].public);

    // Assess
    expect(publicIds).toEqual([
      'getAuthorizationServerMetadata',
      'getJwks',
      'getProtectedResourceMetadata',
      'completeAzureConsent',
      'getOpenApiDocument',
    ]);
  });

  it('routes every operation once, without the authorizer where the client authenticates itself', () => {
    // Assess
    expect(routes.map((route) => route.operationId)).toEqual(operationIds);
    const authorize = routes.find((route) => route.operationId === 'authorize');
    expect(authorize).toMatchObject({ method: 'GET', path: '/oauth/authorize', withoutAuthorizer: true });
    expect(routes.find((route) => route.operationId === 'listPlanLineItems')?.withoutAuthorizer).toBe(false);
  });
});

type Op<Id extends OperationId> = (typeof operations)[Id];

describe('operation types', () => {
  it('give handlers the validated inputs and the response shapes', () => {
    // Assess
    expectTypeOf<QueryOf<Op<'listPlanLineItems'>>['page_size']>().toEqualTypeOf<number>();
    expectTypeOf<QueryOf<Op<'listPlanLineItems'>>['order_by']>().toEqualTypeOf<LineItemSortField | null>();
    expectTypeOf<PathParamsOf<Op<'purchasePlan'>>>().toEqualTypeOf<{ org_id: string; plan_id: string }>();
    expectTypeOf<BodyOf<Op<'purchasePlan'>>>().toEqualTypeOf<{ email: string }>();
    expectTypeOf<BodyOf<Op<'startOnboarding'>>>().toEqualTypeOf<undefined>();
    expectTypeOf<ResponseOf<Op<'getRecommendedCommitmentPlan'>, 200>>().toEqualTypeOf<CommitmentPlan>();
    expectTypeOf<ResponseOf<Op<'getRecommendedCommitmentPlan'>, 204>>().toEqualTypeOf<undefined>();
  });
});
