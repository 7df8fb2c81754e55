import { z } from 'zod';
import type { HttpMethod } from '../../functions/routes';
import { chartQuery, chartResponse } from './chart';
import { registerChildOrgBody } from './child-org-registration';
import { tokenErrorBody } from './errors';
import { uuid } from './formats';
import {
  authorizationServerMetadata,
  authorizeQuery,
  jsonWebKeySet,
  tokenRequestBody,
  tokenResponse,
} from './oauth';
import {
  awsVerifyBody,
  azureAuthUrl,
  azureAuthUrlBody,
  checklist,
  childOrgEntry,
  onboardingStarted,
  registerChildBody,
  registerChildResponse,
} from './onboarding';
import {
  inviteUsersBody,
  membership,
  partnerSettings,
  partnerSettingsBody,
  registeredOrganization,
} from './partners';
import { lineItemsQuery, providerQuery, resourceMatchesQuery } from './plan-queries';
import { commitmentPlan, lineItem } from './plans';
import {
  purchasePlan,
  purchasePlanBody,
  recommendedPurchasePlan,
  recommendedPurchasePlanQuery,
} from './purchase-plans';
import { resourceMatch } from './resource-matches';

/**
 * Every operation of the API: its route, inputs and successful responses. Handlers validate with
 * these schemas, responses are built from them and the OpenAPI document is generated from them.
 */

export type OperationTag = 'OAuth' | 'Commitment plans' | 'Partners' | 'Documentation';

export interface OperationContract {
  readonly method: HttpMethod;
  /** API Gateway template syntax, e.g. `/v1/org/{org_id}/commitments/chart`. */
  readonly path: string;
  readonly summary: string;
  readonly tag: OperationTag;
  /** Served to anyone, without credentials. */
  readonly public: boolean;
  /**
   * An OAuth protocol endpoint: not public, but the OAuth client authenticates itself in the
   * request (client_id, PKCE), so it runs without the x-api-key / Bearer authorizer.
   */
  readonly oauth?: true;
  readonly pathParams?: z.ZodObject;
  /** Takes a `RawQuery` (see query.ts). */
  readonly query?: z.ZodObject;
  readonly body?: z.ZodType;
  /** How the body is encoded; JSON unless stated. */
  readonly bodyMediaType?: 'application/x-www-form-urlencoded';
  /**
   * Schema of the 400 and 401 bodies when it is not the common error body: the token endpoint
   * answers RFC 6749 errors (401 for a client that fails to authenticate).
   */
  readonly clientErrorBody?: z.ZodType;
  /** Successful responses by status; `null` for responses without a body (204, redirects). */
  readonly responses: Readonly<Record<number, z.ZodType | null>>;
  /** Honours the `Idempotency-Key` header (money-moving POSTs). */
  readonly idempotent?: true;
  /** Lists one page and describes the pages in the `X-Pagination` header. */
  readonly paginated?: true;
  /** Can conflict with the stored state (409). */
  readonly conflicts?: true;
}

const orgPath = z.strictObject({ org_id: uuid });
const planPath = z.strictObject({ org_id: uuid, plan_id: uuid });
const partnerPath = z.strictObject({ partner_org_id: uuid });
const childOrgPath = z.strictObject({ partner_org_id: uuid, child_org_id: uuid });

export const operations = {
  authorize: {
    method: 'GET',
    path: '/oauth/authorize',
    summary: 'Start an authorization (code grant with PKCE): redirects to the consent page',
    tag: 'OAuth',
    public: false,
    oauth: true,
    query: authorizeQuery,
    responses: { 302: null },
  },
  issueToken: {
    method: 'POST',
    path: '/oauth/token',
    summary: 'Exchange an authorization code or a refresh token for tokens',
    tag: 'OAuth',
    public: false,
    oauth: true,
    body: tokenRequestBody,
    bodyMediaType: 'application/x-www-form-urlencoded',
    responses: { 200: tokenResponse },
    clientErrorBody: tokenErrorBody,
  },
  getAuthorizationServerMetadata: {
    method: 'GET',
    path: '/.well-known/oauth-authorization-server',
    summary: 'OAuth 2.0 authorization server metadata (RFC 8414)',
    tag: 'OAuth',
    public: true,
    responses: { 200: authorizationServerMetadata },
  },
  getJwks: {
    method: 'GET',
    path: '/.well-known/jwks.json',
    summary: 'The public keys that verify issued access tokens (RFC 7517)',
    tag: 'OAuth',
    public: true,
    responses: { 200: jsonWebKeySet },
  },
  getRecommendedCommitmentPlan: {
    method: 'GET',
    path: '/v1/org/{org_id}/commitment-plans/recommended',
    summary: 'The recommended commitment plan for a provider; 204 when there is none',
    tag: 'Commitment plans',
    public: false,
    pathParams: orgPath,
    query: providerQuery,
    responses: { 200: commitmentPlan, 204: null },
  },
  listDefaultCommitmentPlans: {
    method: 'GET',
    path: '/v1/org/{org_id}/commitment-plans/default',
    summary: 'The default commitment plans for a provider',
    tag: 'Commitment plans',
    public: false,
    pathParams: orgPath,
    query: providerQuery,
    responses: { 200: z.array(commitmentPlan) },
  },
  listPlanLineItems: {
    method: 'GET',
    path: '/v1/org/{org_id}/commitment-plans/{plan_id}/line-items',
    summary: 'The line items of a commitment plan',
    tag: 'Commitment plans',
    public: false,
    pathParams: planPath,
    query: lineItemsQuery,
    responses: { 200: z.array(lineItem) },
    paginated: true,
  },
  applyCommitmentPlan: {
    method: 'POST',
    path: '/v1/org/{org_id}/commitment-plans/{plan_id}/apply',
    summary: 'Apply a commitment plan: record the user and queue its purchases',
    tag: 'Commitment plans',
    public: false,
    pathParams: planPath,
    responses: { 200: commitmentPlan },
    idempotent: true,
    conflicts: true,
  },
  listPlanResourceMatches: {
    method: 'GET',
    path: '/v1/org/{org_id}/commitment-plans/{plan_id}/resource-matches',
    summary: 'How a commitment plan covers individual resources',
    tag: 'Commitment plans',
    public: false,
    pathParams: planPath,
    query: resourceMatchesQuery,
    responses: { 200: z.array(resourceMatch) },
    paginated: true,
    conflicts: true,
  },
  getCommitmentsChart: {
    method: 'GET',
    path: '/v1/org/{org_id}/commitments/chart',
    summary: 'Commitment, utilization and savings over time (default: the last 30 days)',
    tag: 'Commitment plans',
    public: false,
    pathParams: orgPath,
    query: chartQuery,
    responses: { 200: chartResponse },
  },
  updatePartnerSettings: {
    method: 'PATCH',
    path: '/v2/org/{org_id}/partners',
    summary: "Set the partner's marketplace offer links",
    tag: 'Partners',
    public: false,
    pathParams: orgPath,
    body: partnerSettingsBody,
    responses: { 200: partnerSettings },
  },
  getRecommendedPurchasePlan: {
    method: 'GET',
    path: '/v2/org/{org_id}/partners/purchase-plans-v2/recommended',
    summary: 'The recommended purchase plan for a provider; 204 when there is none',
    tag: 'Partners',
    public: false,
    pathParams: orgPath,
    query: recommendedPurchasePlanQuery,
    responses: { 200: recommendedPurchasePlan, 204: null },
  },
  purchasePlan: {
    method: 'POST',
    path: '/v2/org/{org_id}/partners/purchase-plans-v2/{plan_id}/purchase',
    summary: "Purchase a plan for a user of the organization, creating the user's membership if needed",
    tag: 'Partners',
    public: false,
    pathParams: planPath,
    body: purchasePlanBody,
    responses: { 200: purchasePlan },
    idempotent: true,
    conflicts: true,
  },
  registerChildOrg: {
    method: 'POST',
    path: '/v2/partners/{partner_org_id}/orgs',
    summary: 'Register a customer (child) organization of the partner',
    tag: 'Partners',
    public: false,
    pathParams: partnerPath,
    body: registerChildOrgBody,
    responses: { 200: registeredOrganization },
    conflicts: true,
  },
  inviteChildOrgUsers: {
    method: 'POST',
    path: '/v2/partners/{partner_org_id}/orgs/{child_org_id}/invites',
    summary: 'Make users members of a child organization',
    tag: 'Partners',
    public: false,
    pathParams: childOrgPath,
    body: inviteUsersBody,
    responses: { 200: z.array(membership) },
  },
  registerChildViaOnboarding: {
    method: 'POST',
    path: '/v2/org/{org_id}/partners/onboarding/register_child',
    summary: 'Register a customer (child) organization from the onboarding flow',
    tag: 'Partners',
    public: false,
    pathParams: orgPath,
    body: registerChildBody,
    responses: { 200: registerChildResponse },
    conflicts: true,
  },
  startOnboarding: {
    method: 'POST',
    path: '/v2/org/{org_id}/partners/onboarding/start',
    summary: 'Create or resume the onboarding of the organization, starting with AWS',
    tag: 'Partners',
    public: false,
    pathParams: orgPath,
    responses: { 200: onboardingStarted },
  },
  verifyAwsOnboarding: {
    method: 'POST',
    path: '/v2/org/{org_id}/partners/onboarding/aws/verify',
    summary: 'Verify the AWS integration of the organization',
    tag: 'Partners',
    public: false,
    pathParams: orgPath,
    body: awsVerifyBody,
    responses: { 200: checklist },
  },
  verifyAzureOnboarding: {
    method: 'POST',
    path: '/v2/org/{org_id}/partners/onboarding/azure/verify',
    summary: 'Run the Azure onboarding and verify every feature',
    tag: 'Partners',
    public: false,
    pathParams: orgPath,
    responses: { 200: checklist },
  },
  createAzureAuthUrl: {
    method: 'POST',
    path: '/v2/org/{org_id}/partners/onboarding/azure/auth-url',
    summary: 'The URL the customer opens to grant access to an Azure subscription',
    tag: 'Partners',
    public: false,
    pathParams: orgPath,
    body: azureAuthUrlBody,
    responses: { 200: azureAuthUrl },
  },
  listChildOrgs: {
    method: 'GET',
    path: '/v2/org/{org_id}/partners/onboarding/child-orgs',
    summary: "The partner's child organizations with their onboarding checklists",
    tag: 'Partners',
    public: false,
    pathParams: orgPath,
    responses: { 200: z.array(childOrgEntry) },
  },
  getOpenApiDocument: {
    method: 'GET',
    path: '/openapi.json',
    summary: 'This API described as an OpenAPI 3.1 document',
    tag: 'Documentation',
    public: true,
    responses: { 200: z.record(z.string(), z.unknown()) },
  },
} satisfies Record<string, OperationContract>;

export type OperationId = keyof typeof operations;

export const operationIds = Object.keys(operations) as OperationId[];

type OperationOf<Id extends OperationId> = (typeof operations)[Id];

/** The validated path parameters of an operation. */
export type PathParamsOf<Id extends OperationId> =
  OperationOf<Id> extends { pathParams: infer S extends z.ZodType } ? z.output<S> : Record<string, never>;

/** The validated (coerced, defaulted) query of an operation. */
export type QueryOf<Id extends OperationId> =
  OperationOf<Id> extends { query: infer S extends z.ZodType } ? z.output<S> : Record<string, never>;

/** The validated body of an operation. */
export type BodyOf<Id extends OperationId> =
  OperationOf<Id> extends { body: infer S extends z.ZodType } ? z.output<S> : undefined;

/** What a handler answers with `status` (the response schema's input, before it strips extra fields). */
export type ResponseOf<
  Id extends OperationId,
  Status extends keyof OperationOf<Id>['responses'],
> = OperationOf<Id>['responses'][Status] extends infer S extends z.ZodType ? z.input<S> : undefined;
