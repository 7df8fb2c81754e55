import { normalizeEmail } from '../domain/orgs';

/**
 * Key builders for every item of the single table (docs/data-model.md, docs/data-model.md). Keys are made
 * of `#`-separated segments. Identifier segments (org, plan, line, key ids, providers, dates,
 * resource ids, principals) may not contain `#`: otherwise `ORG#a#USAGE#aws` could be both an org
 * partition and a usage partition. Free text (e-mails, names, client-chosen idempotency keys) only
 * ever ends a key, where a `#` cannot make two keys collide.
 */

export interface ItemKey {
  readonly PK: string;
  readonly SK: string;
}

export interface IndexKey {
  readonly GSI1PK: string;
  readonly GSI1SK: string;
}

/** A key part: refused when it holds the separator (exported for the OAuth keys, oauth-keys.ts). */
export function keyPart(value: string): string {
  if (value === '' || value.includes('#')) {
    throw new RangeError(`A key segment must be non-empty and free of '#': ${JSON.stringify(value)}`);
  }
  return value;
}

function text(value: string): string {
  if (value === '') throw new RangeError('A key segment must be non-empty');
  return value;
}

export function emailKeyPart(value: string): string {
  return text(normalizeEmail(value));
}

/** GSI1 partition holding every org, sorted by normalized name (operators' listing). */
export const allOrgsPartition = 'ORGS';

export const orgPartitionPrefix = 'ORG#';

export function orgPartition(orgId: string): string {
  return `${orgPartitionPrefix}${keyPart(orgId)}`;
}

export function orgKey(orgId: string): ItemKey {
  return { PK: orgPartition(orgId), SK: 'ORG' };
}

export function orgListIndexKey(normalizedName: string): IndexKey {
  return { GSI1PK: allOrgsPartition, GSI1SK: text(normalizedName) };
}

export const membershipPrefix = 'MEMBER#';

export function membershipKey(orgId: string, memberEmail: string): ItemKey {
  return { PK: orgPartition(orgId), SK: `${membershipPrefix}${emailKeyPart(memberEmail)}` };
}

export function membershipByUserIndexKey(memberEmail: string, orgId: string): IndexKey {
  return { GSI1PK: userPartition(memberEmail), GSI1SK: orgPartition(orgId) };
}

export function userPartition(userEmail: string): string {
  return `USER#${emailKeyPart(userEmail)}`;
}

export function userKey(userEmail: string): ItemKey {
  return { PK: userPartition(userEmail), SK: 'USER' };
}

export const childLinkPrefix = 'CHILD#';

export function childLinkKey(partnerOrgId: string, childOrgId: string): ItemKey {
  return { PK: orgPartition(partnerOrgId), SK: `${childLinkPrefix}${keyPart(childOrgId)}` };
}

/** Reserves a child org name (normalized) among one partner's children. */
export function childNameKey(partnerOrgId: string, normalizedName: string): ItemKey {
  return { PK: orgPartition(partnerOrgId), SK: `CHILDNAME#${text(normalizedName)}` };
}

export function apiKeyKey(keyId: string): ItemKey {
  return { PK: `KEY#${keyPart(keyId)}`, SK: 'KEY' };
}

export function usagePartition(orgId: string, provider: string): string {
  return `${orgPartition(orgId)}#USAGE#${keyPart(provider)}`;
}

/**
 * One resource's hourly usage over one calendar month (`yyyy-mm`). The month leads the sort key:
 * plans read one window (a month or two) of every resource, and imports rewrite whole months.
 */
export function usageSeriesKey(orgId: string, provider: string, resourceId: string, month: string): ItemKey {
  return { PK: usagePartition(orgId, provider), SK: `${usageMonthPrefix(month)}${keyPart(resourceId)}` };
}

/** Sort key prefix of every resource's series of one month. */
export function usageMonthPrefix(month: string): string {
  return `${keyPart(month)}#`;
}

export const usageStatePrefix = 'USAGE#';

/** The org's usage state for one provider: the version of its plan inputs, the hours stored. */
export function usageStateKey(orgId: string, provider: string): ItemKey {
  return { PK: orgPartition(orgId), SK: `${usageStatePrefix}${keyPart(provider)}` };
}

export const planSetPrefix = 'PLANSET#';

/** The state of an org's plans for one provider: the current plan set and any computation under way. */
export function planSetKey(orgId: string, provider: string): ItemKey {
  return { PK: orgPartition(orgId), SK: `${planSetPrefix}${keyPart(provider)}` };
}

/**
 * The one plan of a computation that was applied: one per org, provider and plan-input version
 * (docs/purchases.md, One plan per computation).
 */
export function appliedComputationKey(orgId: string, provider: string, usageVersion: number): ItemKey {
  if (!Number.isInteger(usageVersion) || usageVersion < 0) {
    throw new RangeError(`not a plan-input version: ${usageVersion}`);
  }
  return { PK: orgPartition(orgId), SK: `APPLIED#${keyPart(provider)}#${usageVersion}` };
}

export function planPrefix(provider: string): string {
  return `PLAN#${keyPart(provider)}#`;
}

export function planKey(orgId: string, provider: string, planId: string): ItemKey {
  return { PK: orgPartition(orgId), SK: `${planPrefix(provider)}${keyPart(planId)}` };
}

/** Finds a plan by id alone (line items, purchases and the queue consumer know only the plan id). */
export function planByIdIndexKey(planId: string): IndexKey {
  return { GSI1PK: planPartition(planId), GSI1SK: 'PLAN' };
}

export function planPartition(planId: string): string {
  return `PLAN#${keyPart(planId)}`;
}

export const lineItemPrefix = 'LINE#';

export function lineItemKey(planId: string, lineItemId: string): ItemKey {
  return { PK: planPartition(planId), SK: `${lineItemPrefix}${keyPart(lineItemId)}` };
}

export const resourceMatchPrefix = 'MATCH#';

export function resourceMatchKey(planId: string, lineItemId: string, matchId: string): ItemKey {
  return {
    PK: planPartition(planId),
    SK: `${resourceMatchPrefix}${keyPart(lineItemId)}#${keyPart(matchId)}`,
  };
}

export const purchasePlanPartPrefix = 'V2PLAN#';

/**
 * One part of the recommended plan's v2 purchase plan (compressed JSON split in parts: its
 * resource list grows with the fleet, past what one item may hold). Parts sort in order.
 */
export function purchasePlanPartKey(planId: string, part: number): ItemKey {
  if (!Number.isInteger(part) || part < 0 || part > 9999)
    throw new RangeError(`part must be 0..9999, got ${part}`);
  return { PK: planPartition(planId), SK: `${purchasePlanPartPrefix}${String(part).padStart(4, '0')}` };
}

export const purchasePrefix = 'PURCHASE#';

export function purchaseKey(planId: string, lineItemId: string): ItemKey {
  return { PK: planPartition(planId), SK: `${purchasePrefix}${keyPart(lineItemId)}` };
}

export function purchaseByOrgPartition(orgId: string): string {
  return `${orgPartition(orgId)}#PURCHASE`;
}

/** An org's purchases in the order they were created (operators' listing). */
export function purchaseByOrgIndexKey(
  orgId: string,
  createdAt: string,
  planId: string,
  lineItemId: string,
): IndexKey {
  return {
    GSI1PK: purchaseByOrgPartition(orgId),
    GSI1SK: `${keyPart(createdAt)}#${keyPart(planId)}#${keyPart(lineItemId)}`,
  };
}

/**
 * The plans whose purchases are under way, one marker item each: what the sweep reads to find
 * purchases whose queue message was lost, without scanning the table.
 */
export const purchasingPlansPartition = 'PURCHASING_PLANS';

export function purchasingPlanKey(planId: string): ItemKey {
  return { PK: purchasingPlansPartition, SK: keyPart(planId) };
}

export function commitmentPartition(orgId: string): string {
  return `${orgPartition(orgId)}#COMMIT`;
}

/** Sort key prefix of one provider's commitments. */
export function commitmentProviderPrefix(provider: string): string {
  return `${keyPart(provider)}#`;
}

/** Sorted by provider, then end date (`yyyy-mm-dd`), so expiring commitments read as a range. */
export function commitmentKey(
  orgId: string,
  provider: string,
  endDate: string,
  commitmentId: string,
): ItemKey {
  return {
    PK: commitmentPartition(orgId),
    SK: `${commitmentProviderPrefix(provider)}${keyPart(endDate)}#${keyPart(commitmentId)}`,
  };
}

export function onboardingKey(orgId: string): ItemKey {
  return { PK: orgPartition(orgId), SK: 'ONBOARDING' };
}

/** The last Cost Explorer probe of one AWS account of the org (docs/onboarding.md), one item each. */
export function costExplorerProbeKey(orgId: string, accountId: string): ItemKey {
  return { PK: orgPartition(orgId), SK: `CE_PROBE#${keyPart(accountId)}` };
}

/**
 * One tenant, one org (docs/onboarding.md): the org an Azure tenant is bound to, by its id (a GUID,
 * lower case), and the org each subscription is bound to.
 */
export function azureTenantBindingKey(tenantId: string): ItemKey {
  return { PK: `AZURE#TENANT#${keyPart(tenantId.toLowerCase())}`, SK: 'BINDING' };
}

export function azureSubscriptionBindingKey(subscriptionId: string): ItemKey {
  return { PK: `AZURE#SUBSCRIPTION#${keyPart(subscriptionId.toLowerCase())}`, SK: 'BINDING' };
}

/** An operator's rebind of a tenant, kept beside its binding (docs/onboarding.md). */
export function azureTenantAuditKey(tenantId: string, at: string, auditId: string): ItemKey {
  return {
    PK: `AZURE#TENANT#${keyPart(tenantId.toLowerCase())}`,
    SK: `AUDIT#${keyPart(at)}#${keyPart(auditId)}`,
  };
}

/** An ID token accepted as a consent's proof, by the SHA-256 of its `uti` (accepted once). */
export function azureIdTokenKey(tokenIdHash: string): ItemKey {
  return { PK: `AZURE#IDTOKEN#${keyPart(tokenIdHash)}`, SK: 'USED' };
}

/**
 * What the usage sync of one provider remembers for the org (docs/usage-sync.md): beside the
 * usage state, outside its `USAGE#` prefix.
 */
export function usageSyncKey(orgId: string, provider: string): ItemKey {
  return { PK: orgPartition(orgId), SK: `USAGE_SYNC#${keyPart(provider)}` };
}

/** A deployed sync's run (docs/usage-sync.md, Deployed), beside the org's sync state. */
export function syncRunKey(orgId: string, provider: string, runId: string): ItemKey {
  return { PK: orgPartition(orgId), SK: `SYNC_RUN#${keyPart(provider)}#${keyPart(runId)}` };
}

/** The partition of a run's staged parts. */
export function syncRunPartition(runId: string): string {
  return `SYNC_RUN#${keyPart(runId)}`;
}

/** Chunk `index` (1 and up) of a staged part's compressed hours. */
export function stagedPartKey(runId: string, partId: string, index: number): ItemKey {
  return { PK: syncRunPartition(runId), SK: `PART#${keyPart(partId)}#${String(index).padStart(4, '0')}` };
}

/**
 * One fixed window's count of an OAuth client's Bearer requests for one org
 * (shared/store/request-throttle.ts), in the org's partition; `window` is the window's index
 * since the epoch.
 */
export function bearerThrottleKey(clientId: string, orgId: string, window: number): ItemKey {
  return { PK: orgPartition(orgId), SK: `THROTTLE#${keyPart(clientId)}#${window}` };
}

/** `principalId` names the caller (it scopes the key); `key` is the client's Idempotency-Key. */
export function idempotencyRecordKey(principalId: string, key: string): ItemKey {
  return { PK: idempotencyPartition(principalId, key), SK: 'IDEM' };
}

function idempotencyPartition(principalId: string, key: string): string {
  return `IDEM#${keyPart(principalId)}#${text(key)}`;
}

/** Sort key prefix of the parts of one attempt's stored response. */
export function idempotencyResponsePartPrefix(attemptId: string): string {
  return `IDEM#PART#${keyPart(attemptId)}#`;
}

/**
 * Part `part` (1 and up; part 0 is on the record itself) of a stored response too large for the
 * record: kept beside it, in its partition, under the attempt that stored it.
 */
export function idempotencyResponsePartKey(
  principalId: string,
  key: string,
  attemptId: string,
  part: number,
): ItemKey {
  if (!Number.isInteger(part) || part < 1 || part > 9999)
    throw new RangeError(`part must be 1..9999, got ${part}`);
  return {
    PK: idempotencyPartition(principalId, key),
    SK: `${idempotencyResponsePartPrefix(attemptId)}${String(part).padStart(4, '0')}`,
  };
}

/** The catalog's partition: `CURRENT` names the current version (docs/data-model.md, Catalog). */
export const catalogPartition = 'CATALOG';

export function catalogCurrentKey(): ItemKey {
  return { PK: catalogPartition, SK: 'CURRENT' };
}

/** The parts of one stored region list: `CATALOG#<version>#<provider>#<region>` / `PART#<n>`. */
export function catalogRegionPartition(version: string, provider: string, region: string): string {
  return `${catalogPartition}#${keyPart(version)}#${keyPart(provider)}#${keyPart(region)}`;
}

export function catalogRegionPartKey(
  version: string,
  provider: string,
  region: string,
  part: number,
): ItemKey {
  return {
    PK: catalogRegionPartition(version, provider, region),
    SK: `PART#${String(part).padStart(4, '0')}`,
  };
}

/** An item that is its own partition (`PK` = `SK`). */
export function selfKey(partition: string): ItemKey {
  return { PK: partition, SK: partition };
}
