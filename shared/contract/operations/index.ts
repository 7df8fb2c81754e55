import {
  type FunctionGroup,
  type OperationContract,
  type OperationList,
  runsWithoutAuthorizer,
} from '../operation-contract';
import { commitmentsChartOperations } from './commitments-chart';
import { jwksOperations } from './jwks';
import { oauthRegistrationOperations } from './oauth-registration';
import { oauthSignInOperations } from './oauth-sign-in';
import { oauthTokenOperations } from './oauth-token';
import { onboardingOperations } from './onboarding';
import { onboardingAwsVerifyOperations } from './onboarding-aws-verify';
import { onboardingAzureConsentOperations } from './onboarding-azure-consent';
import { onboardingAzureVerifyOperations } from './onboarding-azure-verify';
import { openApiOperations } from './openapi';
import { partnerOrgOperations } from './partner-orgs';
import { partnerPurchasePlanOperations } from './partner-purchase-plans';
import { partnerSettingsOperations } from './partner-settings';
import { planCoverageOperations } from './plan-coverage';
import { planPurchaseOperations } from './plan-purchases';
import { planOperations } from './plans';

/**
 * The operation list: every operation of the interface, stated once, by function group. Each
 * group's module is what its Lambda handler imports (so a function bundles its own schemas only);
 * this index joins them for the CDK stack, the local server and the OpenAPI document.
 */
export const operations = {
  ...oauthSignInOperations,
  ...oauthTokenOperations,
  ...oauthRegistrationOperations,
  ...jwksOperations,
  ...planOperations,
  ...planCoverageOperations,
  ...commitmentsChartOperations,
  ...planPurchaseOperations,
  ...partnerSettingsOperations,
  ...partnerPurchasePlanOperations,
  ...partnerOrgOperations,
  ...onboardingOperations,
  ...onboardingAzureConsentOperations,
  ...onboardingAwsVerifyOperations,
  ...onboardingAzureVerifyOperations,
  ...openApiOperations,
} satisfies OperationList;

export type OperationId = keyof typeof operations;

export const operationIds = Object.keys(operations) as OperationId[];

/** One operation as a route: what CDK and the local server need to serve it. */
export interface Route {
  readonly operationId: OperationId;
  readonly method: OperationContract['method'];
  readonly path: string;
  readonly group: FunctionGroup;
  /** No credentials checked before the handler: public documents and the OAuth protocol endpoints. */
  readonly withoutAuthorizer: boolean;
}

/** The routes to serve, one per operation: every function group has its handler (functions/<group>/handler.ts). */
export const routes: readonly Route[] = operationIds.map((operationId): Route => {
  const operation: OperationContract = operations[operationId];
  return {
    operationId,
    method: operation.method,
    path: operation.path,
    group: operation.group,
    withoutAuthorizer: runsWithoutAuthorizer(operation),
  };
});

/** The function groups, each once, in the list's order. */
export const functionGroups: readonly FunctionGroup[] = [
  ...new Set(operationIds.map((id) => operations[id].group)),
];
