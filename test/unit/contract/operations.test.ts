import { describe, expect, expectTypeOf, it } from 'vitest';
import { routes } from '../../../functions/routes';
import {
  type BodyOf,
  operationIds,
  operations,
  type PathParamsOf,
  type QueryOf,
  type ResponseOf,
} from '../../../shared/contract/operations';
import type { LineItemSortField } from '../../../shared/contract/plan-queries';
import type { CommitmentPlan } from '../../../shared/contract/plans';

describe('operation registry', () => {
  it('holds the 21 endpoints of the spec and the OpenAPI document', () => {
    // Assess
    expect(operationIds).toEqual([
      'authorize',
      'issueToken',
      'getAuthorizationServerMetadata',
      'getJwks',
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
    ]);
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
      const validated = 'pathParams' in operation ? Object.keys(operation.pathParams.shape) : [];

      // Assess
      expect(validated, id).toEqual(named);
      if ('pathParams' in operation) {
        const notUuid = Object.fromEntries(validated.map((name) => [name, 'not-a-uuid']));
        expect(operation.pathParams.safeParse(notUuid).error?.issues, id).toHaveLength(validated.length);
      }
    }
  });

  it('makes public only the discovery documents and the OpenAPI document', () => {
    // Act
    const publicIds = operationIds.filter((id) => operations[id].public);

    // Assess
    expect(publicIds).toEqual(['getAuthorizationServerMetadata', 'getJwks', 'getOpenApiDocument']);
  });

  it('agrees with the route manifest on method and path', () => {
    for (const route of routes) {
      // Prepare
      const operation = operations[route.operationId as keyof typeof operations];

      // Assess
      expect(operation, route.operationId).toBeDefined();
      expect(`${operation.method} ${operation.path}`).toBe(`${route.method} ${route.path}`);
      // The manifest's `public` means "served without the authorizer", which OAuth endpoints are too.
      expect(Boolean(route.public)).toBe(operation.public || ('oauth' in operation && operation.oauth));
    }
  });
});

describe('operation types', () => {
  it('give handlers the validated inputs and the response shapes', () => {
    // Assess
    expectTypeOf<QueryOf<'listPlanLineItems'>['page_size']>().toEqualTypeOf<number>();
    expectTypeOf<QueryOf<'listPlanLineItems'>['order_by']>().toEqualTypeOf<LineItemSortField | null>();
    expectTypeOf<PathParamsOf<'purchasePlan'>>().toEqualTypeOf<{ org_id: string; plan_id: string }>();
    expectTypeOf<BodyOf<'purchasePlan'>>().toEqualTypeOf<{ email: string }>();
    expectTypeOf<BodyOf<'startOnboarding'>>().toEqualTypeOf<undefined>();
    expectTypeOf<ResponseOf<'getRecommendedCommitmentPlan', 200>>().toEqualTypeOf<CommitmentPlan>();
    expectTypeOf<ResponseOf<'getRecommendedCommitmentPlan', 204>>().toEqualTypeOf<undefined>();
  });
});
