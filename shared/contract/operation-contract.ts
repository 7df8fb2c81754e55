import type * as z from 'zod/mini';
import type { OAuthScope } from '../domain/scopes';

/**
 * What the operation list states about one operation: its route, the Lambda function that serves
 * it, its inputs and its successful responses. CDK, the local server, request validation and the
 * OpenAPI document all read these records (shared/contract/operations).
 */

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** One Lambda function per group, entry `functions/<group>/handler.ts`, serving every operation of the group. */
export type FunctionGroup =
  | 'oauth-sign-in'
  | 'oauth-token'
  | 'oauth-registration'
  | 'jwks'
  | 'openapi'
  | 'plans'
  | 'plan-coverage'
  | 'commitments-chart'
  | 'plan-purchases'
  | 'partner-settings'
  | 'partner-purchase-plans'
  | 'partner-orgs'
  | 'onboarding'
  | 'onboarding-azure-consent'
  | 'onboarding-aws-verify'
  | 'onboarding-azure-verify';

/**
 * The schema of path parameters or a query: an object, usually built on first use (`z.lazy`), as
 * every contract schema is (docs/architecture.md, Bundles and cold start).
 */
export type ObjectSchema = z.core.$ZodObject | z.core.$ZodLazy<z.core.$ZodObject>;

export type OperationTag = 'OAuth' | 'Commitment plans' | 'Partners' | 'Documentation';

export interface OperationContract {
  readonly method: HttpMethod;
  /** API Gateway template syntax, e.g. `/v1/org/{org_id}/commitments/chart`. */
  readonly path: string;
  readonly group: FunctionGroup;
  readonly summary: string;
  readonly tag: OperationTag;
  /** Served to anyone, without credentials: no authorizer runs. */
  readonly public: boolean;
  /**
   * An OAuth protocol endpoint: not public, but the OAuth client authenticates itself in the
   * request (client_id, PKCE), so it runs without the x-api-key / Bearer authorizer.
   */
  readonly oauth?: true;
  /**
   * The OAuth scope a Bearer token needs for the operation (docs/http.md); API keys carry every
   * scope. Every operation behind the authorizer states one: the group handler refuses to load
   * without it, and checks it before the operation runs, so no use case can forget it.
   */
  readonly scope?: OAuthScope;
  readonly pathParams?: ObjectSchema;
  /** Takes a `RawQuery` (see query.ts). */
  readonly query?: ObjectSchema;
  readonly body?: z.core.$ZodType;
  /** How the body is encoded; JSON unless stated. */
  readonly bodyMediaType?: 'application/x-www-form-urlencoded';
  /**
   * Schema of the 400 and 401 bodies when it is not the common error body: the token endpoint
   * answers RFC 6749 errors (401 for a client that fails to authenticate).
   */
  readonly clientErrorBody?: z.core.$ZodType;
  /**
   * Answers HTML pages for browsers (the OAuth sign-in and consent pages, the authorization
   * endpoint's error page, the Azure consent callback): its errors are pages too, not JSON.
   */
  readonly html?: true;
  /**
   * Other media types its 200 answers as, asked for by `Accept` (the JSON stays the default):
   * the commitments chart as `image/svg+xml`.
   */
  readonly alsoAnswersAs?: readonly string[];
  /** Successful responses by status; `null` for responses without a body (204, redirects). */
  readonly responses: Readonly<Record<number, z.core.$ZodType | null>>;
  /** Honours the `Idempotency-Key` header (money-moving POSTs). */
  readonly idempotent?: true;
  /** Lists one page and describes the pages in the `X-Pagination` header. */
  readonly paginated?: true;
  /** Can conflict with the stored state (409). */
  readonly conflicts?: true;
}

/** Operations by operation id: one function group's, or the whole list. */
export type OperationList = Readonly<Record<string, OperationContract>>;

/** The validated path parameters of an operation. */
export type PathParamsOf<Op extends OperationContract> = Op extends {
  pathParams: infer S extends z.core.$ZodType;
}
  ? z.output<S>
  : Record<string, never>;

/** The validated (coerced, defaulted) query of an operation. */
export type QueryOf<Op extends OperationContract> = Op extends { query: infer S extends z.core.$ZodType }
  ? z.output<S>
  : Record<string, never>;

/** The validated body of an operation. */
export type BodyOf<Op extends OperationContract> = Op extends { body: infer S extends z.core.$ZodType }
  ? z.output<S>
  : undefined;

/** What a handler answers with `status` (the response schema's input, before it strips extra fields). */
export type ResponseOf<
  Op extends OperationContract,
  Status extends keyof Op['responses'],
> = Op['responses'][Status] extends infer S extends z.core.$ZodType ? z.input<S> : undefined;

/**
 * Whether the operation runs without the authorizer: public documents, and the OAuth protocol
 * endpoints, whose clients authenticate in the request itself.
 */
export function runsWithoutAuthorizer(operation: OperationContract): boolean {
  return operation.public || operation.oauth === true;
}
