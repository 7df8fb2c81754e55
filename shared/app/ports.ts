import type { ApiKeyRecord } from '../auth/api-keys';
import type {
  CommitmentSharing,
  ExistingCommitment,
  LineItem,
  LineResourceMatch,
  PlanStatus,
  Provider,
  ProviderPlans,
  RecommendedPurchasePlan,
  ResidualArena,
  UsageStream,
  UsageWindow,
} from '../domain/engine';
import type { StoredResponse } from '../domain/idempotency';
import type {
  AuthorizationCode,
  AuthorizationRequest,
  OAuthClient,
  RefreshToken,
  SignInCode,
  SignInSession,
  TokenFamily,
} from '../domain/oauth/records';
import type { CheckResult } from '../domain/onboarding/checklist';
import type { CostExplorerProbe } from '../domain/onboarding/cost-explorer-probe';
import type {
  AwsOnboarding,
  AzureOnboarding,
  ExistingCur,
  OnboardingProvider,
  OnboardingRecord,
} from '../domain/onboarding/onboarding-record';
import type {
  ChildOrgLink,
  MarketplaceOfferLinks,
  Membership,
  Organization,
  OrgPlacement,
  User,
} from '../domain/orgs';
import type { AppliedComputation } from '../domain/plans/applied-computation';
import type { ComputedPlanSet, PlanCalculation, PlanSetState, StoredPlan } from '../domain/plans/plan-set';
import type { HandCompletion } from '../domain/purchases/hand-completion';
import type { PurchaseClaim, PurchaseLimitPrice, PurchaseRecord } from '../domain/purchases/purchase-record';
import type { CoveredHours, ProviderUsage } from '../domain/usage/imported-usage';
import type { ImportSession, UsageState } from '../domain/usage/usage-state';

/**
 * Ports: what use cases need from the outside world. Adapters implement them (shared/store on
 * DynamoDB; shared/runtime wires them). Every write is a single-item conditional write, so a
 * sequence interrupted half-way is completed by a retry (dynalite has no transactions).
 */

export interface Clock {
  now(): Date;
}

export interface IdGenerator {
  /** A new random (version 4) UUID. */
  uuid(): string;
}

/**
 * The outcome of claiming a child org name. When another org holds it, `sameRegistration` tells
 * whether the holder claimed it for a registration of the same content (this one is a retry of it).
 */
export type NameClaim =
  | { readonly claimed: true }
  | { readonly claimed: false; readonly orgId: string; readonly sameRegistration: boolean };

export interface OrgRepository {
  get(orgId: string): Promise<Organization | null>;
  /** The org's placement (id, parent, partner flag): what access decisions read. */
  placement(orgId: string): Promise<OrgPlacement | null>;
  /** Every org, for operators (admin CLI); ordered by name. */
  list(): Promise<Organization[]>;
  getChildLink(partnerOrgId: string, childOrgId: string): Promise<ChildOrgLink | null>;
  listChildLinks(partnerOrgId: string): Promise<ChildOrgLink[]>;
}

/**
 * Creating orgs, linking children to partners and changing an org's settings: apart from
 * OrgRepository (what every access check and read needs), so that a function that only reads
 * orgs bundles none of it.
 */
export interface OrgUpdateRepository {
  /** Creates the org; a ConflictError when an org with this id exists already. */
  create(org: Organization): Promise<void>;
  /**
   * Sets the given offer links (null clears one; links not given are kept) in one atomic write,
   * so concurrent updates of different links never undo each other. Answers the org as stored
   * after the write; a NotFoundError for an unknown org.
   */
  setOfferLinks(orgId: string, links: Partial<MarketplaceOfferLinks>, at: string): Promise<Organization>;
  /** Sets whose usage the org's commitments cover; answers the org as stored; NotFoundError if unknown. */
  setCommitmentSharing(orgId: string, sharing: CommitmentSharing, at: string): Promise<Organization>;
  /** Sets the org's renewal horizon in days; answers the org as stored; NotFoundError if unknown. */
  setRenewalHorizonDays(orgId: string, days: number, at: string): Promise<Organization>;
  /** Sets the execution policy's upfront cap (null: none); answers the org as stored; NotFoundError if unknown. */
  setMaxUpfrontCost(orgId: string, maxUpfrontCost: number | null, at: string): Promise<Organization>;
  /**
   * Reserves `name` (normalized) for `childOrgId` among the partner's children, recording
   * `registration` (a digest of what is registered). When another org holds it already, answers
   * that org's id and whether its claim recorded the same registration.
   */
  claimChildName(
    partnerOrgId: string,
    normalizedName: string,
    childOrgId: string,
    registration: string,
  ): Promise<NameClaim>;
  putChildLink(link: ChildOrgLink): Promise<void>;
}

export interface UserRepository {
  get(email: string): Promise<User | null>;
  /** Creates the user unless one with this e-mail exists; answers the stored user either way. */
  ensure(user: User): Promise<User>;
}

export interface MembershipRepository {
  get(orgId: string, email: string): Promise<Membership | null>;
  /** Creates or replaces the membership. */
  put(membership: Membership): Promise<void>;
  listByOrg(orgId: string): Promise<Membership[]>;
  listByUser(email: string): Promise<Membership[]>;
}

export interface ApiKeyRepository {
  /** Creates the key record; a ConflictError when the key id exists already. */
  create(record: ApiKeyRecord): Promise<void>;
  get(keyId: string): Promise<ApiKeyRecord | null>;
  /** Marks the key revoked; a NotFoundError for an unknown key id. Revoking twice keeps the first time. */
  revoke(keyId: string, at: string): Promise<ApiKeyRecord>;
  /** Records a successful use (best effort: callers do not wait on its failure). */
  markUsed(keyId: string, at: string): Promise<void>;
}

/**
 * Whether a refresh-token family was revoked (a reused refresh token, a replayed code, revocation
 * by the user or an operator): the authorizer refuses access tokens of a revoked family, though
 * they are unexpired and well signed. The authorization server writes the family item
 * (docs/data-model.md, `oauth_family`) before it issues any token of it.
 */
export interface TokenFamilyRevocations {
  /** True when the family is revoked, and when no such family is stored (never issued, or gone). */
  isRevoked(familyId: string): Promise<boolean>;
}

/** What an import stored, recorded on the provider's usage state when the import ends. */
export type ImportedInputs =
  | { readonly kind: 'usage'; readonly covered: CoveredHours; readonly resources: number }
  | { readonly kind: 'commitments'; readonly commitments: number }
  /** A repair that dropped the usage after `lastHour`, the last hour with usage left (null: none left). */
  | { readonly kind: 'repair'; readonly lastHour: number | null };

/**
 * An org's hourly usage per provider (one series per resource and month) and the usage state
 * that versions the provider's plan inputs (docs/import.md, docs/data-model.md). An import opens
 * a session (`openImport`), writes, renewing its lease, then finishes its session; run again
 * after a failure, it completes.
 */
export interface UsageRepository {
  /**
   * Opens `session` on the provider's usage state and raises `usageVersion` (plans of earlier
   * versions are stale from now on), provided the state's `version` is still
   * `expectedStateVersion` (null: no state stored). Answers the new usage version, or null,
   * changing nothing, when the state changed since it was read.
   */
  openImport(
    orgId: string,
    provider: Provider,
    session: ImportSession,
    expectedStateVersion: number | null,
  ): Promise<number | null>;
  /** Extends the lease of session `sessionId` to `expiresAt`; false when it no longer owns the state. */
  renewImport(orgId: string, provider: Provider, sessionId: string, expiresAt: string): Promise<boolean>;
  /**
   * Replaces the provider's stored usage on the covered hours: every stored series takes the
   * file's values there (zeros for resources the file does not name); other hours are kept.
   * Awaits `beforeWrites` before each group of writes (with the month they are of): the import
   * reports progress and renews its lease there, and stops by throwing.
   */
  replaceCoveredHours(
    orgId: string,
    usage: ProviderUsage,
    usageVersion: number,
    beforeWrites?: (month: string) => Promise<void>,
  ): Promise<void>;
  /**
   * Ends session `sessionId`, recording what it stored (null: nothing); a ConflictError when
   * another import took the provider's state over since (run this one again).
   */
  finishImport(
    orgId: string,
    provider: Provider,
    sessionId: string,
    imported: ImportedInputs | null,
    at: string,
  ): Promise<UsageState>;
  /**
   * Raises the provider's `usageVersion` because something else its plans are computed from
   * changed (the org's sharing scope), so that its plans are stale from now on. Answers false,
   * changing nothing, when the provider has no plan inputs or an import is running (the import's
   * end computes plans from what is stored then).
   */
  raisePlanInputsVersion(orgId: string, provider: Provider, at: string): Promise<boolean>;
  /**
   * The last hour (since the epoch) in `[notBefore, notAfter]` with any stored usage of the
   * provider, searched month by month from `notAfter` back; null when there is none.
   */
  lastHourWithUsage(
    orgId: string,
    provider: Provider,
    notBefore: number,
    notAfter: number,
  ): Promise<number | null>;
  /** Every resource with stored usage in the window, its hourly usage over the window (zeros where none is stored), ordered by resource id. */
  loadUsage(orgId: string, provider: Provider, window: UsageWindow): Promise<UsageStream[]>;
  usageState(orgId: string, provider: Provider): Promise<UsageState | null>;
  /** The providers the org has imported usage of, in the order aws, azure, gcp. */
  listProvidersWithUsage(orgId: string): Promise<Provider[]>;
}

/** The commitments an org owns (imported), per provider. */
export interface CommitmentRepository {
  /** Makes `commitments` the org's commitments of `provider`: writes them, then deletes the others. */
  replaceCommitments(
    orgId: string,
    provider: Provider,
    commitments: readonly ExistingCommitment[],
  ): Promise<void>;
  /** Writes one commitment (a purchase's): rewriting the same id changes nothing. */
  putCommitment(orgId: string, commitment: ExistingCommitment): Promise<void>;
  /** Deletes the provider's commitments with these ids (absent ones are no error). */
  deleteCommitments(orgId: string, provider: Provider, ids: readonly string[]): Promise<void>;
  /** The org's commitments, or one provider's, ordered by provider, then end, then id. */
  listCommitments(orgId: string, provider?: Provider): Promise<ExistingCommitment[]>;
}

/** What a plan set was computed from, stored with each of its plans. */
export interface PlanBasis {
  readonly usageVersion: number;
  readonly planSeed: string;
  readonly window: UsageWindow;
  /** The org's sharing scope the plan was computed with: its usage is covered again the same way. */
  readonly sharing: CommitmentSharing;
  /** The org's renewal horizon the plan was computed with, kept for the same reason. */
  readonly renewalHorizonDays: number;
}

/**
 * A stored plan's content, fixed once stored (a plan id names one computation's output): the
 * plan's place and basis, and its line items in the order the plan applies them.
 */
export interface PlanContent extends PlanBasis {
  readonly planId: string;
  readonly orgId: string;
  readonly provider: Provider;
  /** The plan's `created_at`. */
  readonly createdAt: string;
  readonly lineItems: readonly LineItem[];
}

/**
 * Stored plans as readers see them (docs/plans-api.md, docs/data-model.md): the published plan
 * set, the plans, their content and matches, and their status. What a computation writes is
 * ComputedPlanRepository's, so that the functions that only serve or apply plans bundle none of it.
 */
export interface PlanRepository {
  planSet(orgId: string, provider: Provider): Promise<PlanSetState | null>;
  /** The stored plans among `planIds`, in that order (ids with no plan are left out). */
  getPlans(orgId: string, provider: Provider, planIds: readonly string[]): Promise<StoredPlan[]>;
  /** The content of the org's plan `planId`, any provider; null when the org has no such plan. */
  planContent(orgId: string, planId: string): Promise<PlanContent | null>;
  /** The plan's resource matches in plan order, or those of the given line items only. */
  listResourceMatches(planId: string, lineItemIds?: readonly string[]): Promise<LineResourceMatch[]>;
  /** Resource match id -> id of the line item it belongs to, for every match of the plan. */
  resourceMatchLineItems(planId: string): Promise<ReadonlyMap<string, string>>;
  /** The v2 purchase plan stored with a recommended plan; null for other plans. */
  purchasePlan(planId: string): Promise<RecommendedPurchasePlan | null>;
  /** The plan of the org's computation `usageVersion` that was applied; null when none was. */
  appliedComputation(
    orgId: string,
    provider: Provider,
    usageVersion: number,
  ): Promise<AppliedComputation | null>;
  /**
   * Claims the computation `usageVersion` for `claim.planId`, applied as `claim.appliedBy`: written
   * when no plan holds it, or the same plan holds it as the same user (a retry) or as
   * `takeOverFrom` (a re-apply after a review). Answers the claim as stored after the write: the
   * caller's when it won, the holder's otherwise.
   */
  claimComputation(
    orgId: string,
    provider: Provider,
    usageVersion: number,
    claim: AppliedComputation,
    takeOverFrom?: string,
  ): Promise<AppliedComputation>;
  /**
   * Moves the plan's status from one of `change.from` to `change.to`, recording `lastModified`
   * (and, when given, who applied it and when). Answers the plan as stored after the change, or
   * null, changing nothing, when the plan is not in one of those statuses (or does not exist).
   */
  changeStatus(
    orgId: string,
    provider: Provider,
    planId: string,
    change: {
      readonly from: readonly PlanStatus[];
      readonly to: PlanStatus;
      readonly at: string;
      readonly appliedBy?: string;
    },
  ): Promise<StoredPlan | null>;
}

/**
 * What a plan computation writes (plan-computation.ts): it claims the provider's plan set, stores
 * its plans, then publishes them by completing the claim; only then do readers learn the new plan
 * ids. It deletes the plans they supersede.
 */
export interface ComputedPlanRepository {
  /**
   * Claims the computation of `calculation.usageVersion`. Answers false, claiming nothing, when
   * another claim started after `expiredBefore` holds the plan set, or that version is computed
   * already.
   */
  claimCalculation(
    orgId: string,
    provider: Provider,
    calculation: PlanCalculation,
    expiredBefore: string,
  ): Promise<boolean>;
  /**
   * Publishes `computed` as the plan set and ends the claim `claimId`; false, changing nothing,
   * when the claim is no longer held (it expired and another computation claimed the set).
   */
  completeCalculation(
    orgId: string,
    provider: Provider,
    claimId: string,
    computed: ComputedPlanSet,
  ): Promise<boolean>;
  /** Ends the claim `claimId` without publishing anything (a failed computation); no-op if not held. */
  releaseCalculation(orgId: string, provider: Provider, claimId: string): Promise<void>;
  /** Stores every plan of `plans` with its line items, resource matches and v2 purchase plan. */
  storePlans(orgId: string, basis: PlanBasis, plans: ProviderPlans): Promise<void>;
  /**
   * Deletes a plan and everything stored under it, unless it was ever applied (its status is not
   * `new` any more): applied plans are kept. Answers whether it is gone.
   */
  deletePlan(orgId: string, provider: Provider, planId: string): Promise<boolean>;
}

/** One request's hold on an idempotency key: whose key, which key, which request, which attempt. */
export interface IdempotencyClaim {
  /** The caller the key belongs to (`idempotencyScope`). */
  readonly scope: string;
  /** The client's `Idempotency-Key`. */
  readonly key: string;
  /** The request's `requestFingerprint`. */
  readonly fingerprint: string;
  /** Unique per attempt: only the attempt holding the record may complete or release it. */
  readonly attemptId: string;
}

/** What a request with an idempotency key may do (see `recordStanding` for the rules). */
export type IdempotencyBeginning =
  /** The record is this attempt's now: run the request, then complete or release the record. */
  | { readonly outcome: 'started' }
  /** The same request completed: answer its response again. */
  | { readonly outcome: 'replay'; readonly response: StoredResponse }
  /** The same request is running. */
  | { readonly outcome: 'in_flight' }
  /** The key was used with another request. */
  | { readonly outcome: 'reused' };

/**
 * Idempotency records (docs/purchases.md, Idempotency-Key): one per caller and key, kept a day.
 * `begin` settles concurrent requests with one conditional write, so of two requests with the
 * same key exactly one starts.
 */
export interface IdempotencyRepository {
  /** Records the claim in flight unless a live record holds the key; answers what the request may do. */
  begin(claim: IdempotencyClaim, now: Date): Promise<IdempotencyBeginning>;
  /**
   * Stores the claim's response for replays; false, storing nothing, when the attempt no longer
   * holds the record (it ran past the in-flight expiry and another attempt took the key over).
   */
  complete(claim: IdempotencyClaim, response: StoredResponse, now: Date): Promise<boolean>;
  /** Deletes the claim's in-flight record, so that a retry runs again; no-op if the attempt does not hold it. */
  release(claim: IdempotencyClaim): Promise<void>;
}

/** What a purchase attempt learnt from the provider (or the operator), as recorded on its record. */
export type PurchaseOutcome =
  | {
      readonly status: 'completed';
      readonly providerIds: readonly string[];
      readonly upfrontCost: number;
      readonly recurringCost: number;
      readonly providerQuantity: number;
    }
  /** The provider refused (nothing bought), or an operator must buy it by hand (`manual`). */
  | { readonly status: 'failed' | 'manual'; readonly reason: string; readonly code: string };

/** A plan whose purchases are under way: what the sweep looks through. */
export interface PurchasingPlan {
  readonly planId: string;
  readonly orgId: string;
  readonly provider: Provider;
  readonly since: string;
}

/**
 * Purchase records (DESIGN §9, docs/purchases.md). Each state change is a conditional write on
 * the expected status; methods answer the record as stored after the change, or null when the
 * record was not in that status (someone else moved it first).
 */
export interface PurchaseRepository {
  /** Creates each record unless it exists; answers the records as stored (existing ones untouched). */
  createRecords(records: readonly PurchaseRecord[]): Promise<PurchaseRecord[]>;
  get(planId: string, lineItemId: string): Promise<PurchaseRecord | null>;
  /** The plan's records, in line item id order. */
  listByPlan(planId: string): Promise<PurchaseRecord[]>;
  /** The org's records, oldest first. */
  listByOrg(orgId: string): Promise<PurchaseRecord[]>;
  /** `queued`, or `purchasing` with a claim expired at `claim.claimedAt` -> `purchasing` under `claim`. */
  claim(record: PurchaseRecordRef, claim: PurchaseClaim): Promise<PurchaseRecord | null>;
  /**
   * Records what attempt `attemptId` learnt: `completed` from any attempt while `purchasing`
   * (the provider's answer for the client token is the truth), `failed` / `manual` only while
   * that attempt still holds the claim.
   */
  finish(
    record: PurchaseRecordRef,
    attemptId: string,
    outcome: PurchaseOutcome,
    at: string,
  ): Promise<PurchaseRecord | null>;
  /** `queued` with `attempts` unchanged -> `failed`: a guard rail refused it before any attempt bought. */
  refuse(
    record: PurchaseRecordRef & Pick<PurchaseRecord, 'attempts'>,
    reason: string,
    code: string,
    at: string,
  ): Promise<PurchaseRecord | null>;
  /** `failed` -> `queued` (same client token), with a new limit price when one is given. */
  requeue(
    record: PurchaseRecordRef,
    at: string,
    limitPrice?: PurchaseLimitPrice,
  ): Promise<PurchaseRecord | null>;
  /** `manual` -> `completed`, with the operator's reference and what they bought. */
  completeByHand(
    record: PurchaseRecordRef,
    completion: HandCompletion,
    at: string,
  ): Promise<PurchaseRecord | null>;
  /** Notes that the plan's purchases are under way (idempotent). */
  markPurchasing(plan: PurchasingPlan): Promise<void>;
  unmarkPurchasing(planId: string): Promise<void>;
  purchasingPlans(): Promise<PurchasingPlan[]>;
}

export type PurchaseRecordRef = Pick<PurchaseRecord, 'planId' | 'lineItemId'>;

/** What exchanging a code or rotating a refresh token found: the first use, a second one, or nothing. */
export type SingleUse<T> =
  | { readonly kind: 'first'; readonly item: T }
  | { readonly kind: 'again'; readonly item: T }
  | { readonly kind: 'unknown' };

/**
 * The authorization server's items (DESIGN §6, docs/oauth.md). Single-use items (codes, refresh
 * tokens) are spent with one conditional write, so two concurrent uses cannot both succeed.
 */
export interface OAuthRepository {
  /** A ConflictError when the client id exists already. */
  createClient(client: OAuthClient): Promise<void>;
  getClient(clientId: string): Promise<OAuthClient | null>;
  listClients(): Promise<OAuthClient[]>;
  /** Marks the client revoked (the first time is kept); a NotFoundError for an unknown client. */
  revokeClient(clientId: string, at: string): Promise<OAuthClient>;

  putRequest(request: AuthorizationRequest): Promise<void>;
  getRequest(requestId: string): Promise<AuthorizationRequest | null>;
  /** Deletes the request; false when it was gone already (another tab finished it). */
  takeRequest(requestId: string): Promise<boolean>;

  putSession(session: SignInSession): Promise<void>;
  getSession(sessionHash: string): Promise<SignInSession | null>;
  deleteSession(sessionHash: string): Promise<void>;

  /** Stores the request's one-time code, replacing an earlier one (and its attempt count). */
  putSignInCode(code: SignInCode): Promise<void>;
  getSignInCode(requestId: string): Promise<SignInCode | null>;
  /** Counts one attempt at the code; false, counting nothing, once `maxAttempts` were made. */
  countSignInAttempt(requestId: string, maxAttempts: number): Promise<boolean>;
  deleteSignInCode(requestId: string): Promise<void>;

  /**
   * Counts one event in the fixed window `bucket` (which names its window), expiring at
   * `expiresAt`: false, counting nothing, once `limit` events were counted.
   */
  countRateEvent(bucket: string, limit: number, expiresAt: string): Promise<boolean>;

  /**
   * Counts one event in the window `bucket` when it is open: `wait` while the delay the last event
   * set has not passed (or another event is being counted at the same moment), `capped` once
   * `pacing.limit` events were counted; each counted event sets the next delay from the number
   * counted before it. `refundPacedEvent` takes one back (a check that found the right code).
   */
  countPacedEvent(bucket: string, pacing: EventPacing): Promise<'counted' | 'wait' | 'capped'>;
  refundPacedEvent(bucket: string): Promise<void>;

  putCode(code: AuthorizationCode): Promise<void>;
  /** Spends the code: `first` exactly once, `again` on every later exchange (a replay). */
  spendCode(codeHash: string, at: string): Promise<SingleUse<AuthorizationCode>>;

  /** Creates the family; false when it exists already (revoked before it was created: a replay). */
  createFamily(family: TokenFamily): Promise<boolean>;
  getFamily(familyId: string): Promise<TokenFamily | null>;
  /** Marks the family revoked, creating a revoked marker if it does not exist yet. */
  revokeFamily(familyId: string, at: string): Promise<void>;
  familiesOfUser(email: string): Promise<TokenFamily[]>;
  familyIdsOfClient(clientId: string): Promise<string[]>;

  putRefreshToken(token: RefreshToken): Promise<void>;
  getRefreshToken(tokenHash: string): Promise<RefreshToken | null>;
  /** Spends the refresh token: `first` exactly once, `again` on every later use (a reuse). */
  spendRefreshToken(tokenHash: string, at: string): Promise<SingleUse<RefreshToken>>;
}

/** How `countPacedEvent` paces a bucket's events. */
export interface EventPacing {
  readonly limit: number;
  readonly now: Date;
  /** Seconds until the next event may be counted, given the events counted before this one. */
  readonly delaySeconds: (eventsBefore: number) => number;
  /** When the window, and so the bucket, ends. */
  readonly expiresAt: string;
}

/** One e-mail to send. */
export interface MailMessage {
  readonly to: string;
  readonly subject: string;
  readonly text: string;
}

/** Sends e-mail: SES v2 on AWS; locally a JSON file per mail under `.local/outbox/`. */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

/** Onboarding records, one per org (DESIGN §11, docs/onboarding.md). */
export interface OnboardingRepository {
  get(orgId: string): Promise<OnboardingRecord | null>;
  /** Stores `record` unless the org has one; answers the record as stored either way. */
  createOrGet(record: OnboardingRecord): Promise<OnboardingRecord>;
  /**
   * Sets the provider's part of the record (and the current provider) if the org's onboarding is
   * still `onboardingId`; answers the record as stored after the write, or null when it is not.
   */
  update(
    orgId: string,
    onboardingId: string,
    change: {
      readonly provider?: OnboardingProvider;
      readonly aws?: AwsOnboarding;
      readonly azure?: AzureOnboarding;
      readonly at: string;
      /** Writes only if the record's Azure part still expects this consent nonce (single use). */
      readonly consumingConsentNonce?: string;
      /** The last Cost Explorer probe; null clears it. */
      readonly costExplorerProbe?: CostExplorerProbe | null;
    },
  ): Promise<OnboardingRecord | null>;
  /**
   * Claims the hour's Cost Explorer probe of `accountId` (result null) unless the record holds a
   * probe of that account later than `notBefore`; answers whether it did.
   */
  claimCostExplorerProbe(
    orgId: string,
    onboardingId: string,
    probe: { readonly accountId: string; readonly at: string },
    notBefore: string,
  ): Promise<boolean>;
}

/** What the verifier needs to check an AWS account through its onboarding role. */
export interface AwsVerificationRequest {
  readonly accountId: string;
  readonly roleArn: string;
  readonly externalId: string;
  readonly existingCur: ExistingCur | null;
  /**
   * The last Cost Explorer probe's result, answered in place of a call (at most one probe an hour
   * per account, docs/onboarding.md); absent: the verification calls Cost Explorer.
   */
  readonly costExplorerResult?: CheckResult;
}

export interface AzureVerificationRequest {
  readonly tenantId: string;
  readonly subscriptionId: string;
  /** What the consent callback recorded; null when the customer has not come back (yet). */
  readonly consent: AzureOnboarding['consent'];
}

/**
 * Checks a customer's AWS account (DESIGN §11): one result per checklist feature, in the
 * checklist's order. A failing provider call becomes its check's `missing` or `unknown` with the
 * provider's message; the verification itself does not fail for it.
 */
export interface AwsVerifier {
  verifyAws(request: AwsVerificationRequest): Promise<CheckResult[]>;
}

/** Checks a customer's Azure tenant and subscription, as AwsVerifier does an AWS account. */
export interface AzureVerifier {
  verifyAzure(request: AzureVerificationRequest): Promise<CheckResult[]>;
}

/**
 * Both verifiers: the simulated cloud and the tests' (each verification runs in its own Lambda
 * function on AWS, with its provider's adapter only).
 */
export interface CloudVerifier extends AwsVerifier, AzureVerifier {}

/** Every repository a use case may reach, as one object (built by shared/store's createStore). */
export interface Repositories {
  readonly orgs: OrgRepository;
  readonly orgUpdates: OrgUpdateRepository;
  readonly users: UserRepository;
  readonly memberships: MembershipRepository;
  readonly apiKeys: ApiKeyRepository;
  readonly usage: UsageRepository;
  readonly commitments: CommitmentRepository;
  readonly plans: PlanRepository;
  readonly computedPlans: ComputedPlanRepository;
  readonly idempotencyRecords: IdempotencyRepository;
  readonly purchases: PurchaseRepository;
  readonly tokenFamilyRevocations: TokenFamilyRevocations;
  readonly oauth: OAuthRepository;
  readonly onboarding: OnboardingRepository;
}

/** What every use case is given by the composition root. */
export interface AppContext {
  readonly repos: Repositories;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  /**
   * Memory the plan engine reuses from one computation to the next (residual-arena.ts): one per
   * process, as a warm Lambda computes plan after plan. Absent: each computation allocates its own.
   */
  readonly engineMemory?: ResidualArena;
  /**
   * Brings an org's plans for a provider up to date (`refreshPlans`, plan-computation.ts) and
   * tells how it went: in this process for the local runtime, tests and tools; on AWS in the
   * plan-computation function, which the plan-serving functions invoke, so that they carry no
   * engine. The plan-serving use cases need it (commitment-plans.ts); others leave it out.
   */
  readonly planComputation?: PlanComputation;
}

/** Runs `refreshPlans` for one org and provider, wherever the composition root decided. */
export type PlanComputation = (orgId: string, provider: Provider) => Promise<PlanRefresh>;

/** A context that has its plan computation (the plan-serving use cases need one). */
export type WithPlanComputation<C> = C & { readonly planComputation: PlanComputation };

/** Whether `ctx` has its plan computation. */
export function hasPlanComputation<C extends { readonly planComputation?: PlanComputation }>(
  ctx: C,
): ctx is WithPlanComputation<C> {
  return ctx.planComputation !== undefined;
}

/**
 * `current`: the stored plans were current already (or became so meanwhile); `computed`: this
 * call computed and published them; `calculating`: another computation holds the plan set;
 * `importing`: an import is changing the inputs, so nothing is computed until it ends (its end
 * computes them); `abandoned`: an import stopped half-way and its inputs are not whole, so
 * nothing is computed until an import of the provider finishes.
 */
export const planRefreshOutcomes = ['current', 'computed', 'calculating', 'importing', 'abandoned'] as const;
export type PlanRefreshOutcome = (typeof planRefreshOutcomes)[number];

export interface PlanRefresh {
  readonly outcome: PlanRefreshOutcome;
  /** The plan set as it stands after the refresh. */
  readonly planSet: PlanSetState | null;
  /** The usage state the refresh judged freshness by. */
  readonly usageState: UsageState | null;
}

/**
 * The context of a use case that needs only some repositories. A Lambda function builds only the
 * repositories its use cases name here (shared/runtime/current.ts), so its bundle carries no
 * other repository's code; a full AppContext (local runtime, tests) serves every use case.
 */
export type ContextWith<K extends keyof Repositories> = Omit<AppContext, 'repos'> & {
  readonly repos: Pick<Repositories, K>;
};
