/**
 * How a function is deployed, declared beside its composition (`functions/<group>/deployment.ts`)
 * and read by the CDK API stack (lib/api-stack.ts). Plain data: the stack turns it into settings,
 * environment and IAM statements, and the function's bundle never imports it (its handler does
 * not), so no CDK code reaches a Lambda bundle.
 */
export interface GroupDeployment {
  /**
   * `service`: the stack's memory for every function; `planEngine`: the memory of the functions
   * that run the plan engine, as CPU grows with memory.
   */
  readonly memory: 'service' | 'planEngine';
  /** Its timeout in seconds; absent: the service's default. */
  readonly timeoutSeconds?: number;
  /**
   * Which table items it may touch: `all` (every item action on the table and its indexes),
   * `plans` (no scan, and only the partitions of orgs and plans: docs/plans-api.md) or `none`.
   */
  readonly tableItems: 'all' | 'plans' | 'none';
  /** What else it may do; each grant sets the environment variable that names its resource. */
  readonly grants: readonly GroupGrant[];
}

export type GroupGrant =
  /** Invoke the plan-computation function, named by `PLAN_COMPUTATION_FUNCTION`. */
  | 'invokePlanComputation'
  /** Send purchase messages to the FIFO queue at `PURCHASE_QUEUE_URL`. */
  | 'sendPurchases'
  /** Sign access tokens with the KMS key (`kms:Sign`). */
  | 'signTokens'
  /** Read the signing keys' public keys, to publish them. */
  | 'readPublicKeys'
  /** Send sign-in codes with SES v2 as `MAIL_FROM`, and nothing else. */
  | 'sendSignInMail';

/**
 * The bound of the functions behind API Gateway that may wait long (on the plan computation, on a
 * customer's cloud): just under its 29 s integration timeout.
 */
export const underIntegrationTimeoutSeconds = 28;
