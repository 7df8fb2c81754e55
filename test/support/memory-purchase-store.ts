import type {
  PurchaseOutcome,
  PurchaseRecordRef,
  PurchaseRepository,
  PurchasingPlan,
} from '../../shared/app/ports';
import type { HandCompletion } from '../../shared/domain/purchases/hand-completion';
import type {
  PurchaseClaim,
  PurchaseLimitPrice,
  PurchaseRecord,
} from '../../shared/domain/purchases/purchase-record';

/**
 * The purchase repository in memory, with the conditions of shared/store/purchases.ts written
 * out (each method checks and writes in one synchronous step, as DynamoDB applies a conditional
 * write to one item atomically). The exactly-once model test runs thousands of histories on it;
 * test/integration/store/purchases.test.ts runs the same contract cases against it and against
 * the DynamoDB repository on dynalite, so the two cannot drift apart.
 */
export class MemoryPurchaseRepository implements PurchaseRepository {
  readonly records = new Map<string, PurchaseRecord>();
  readonly markers = new Map<string, PurchasingPlan>();

  async createRecords(records: readonly PurchaseRecord[]): Promise<PurchaseRecord[]> {
    return records.map((record) => {
      const existing = this.records.get(keyOf(record));
      if (existing) return existing;
      this.records.set(keyOf(record), record);
      return record;
    });
  }

  async get(planId: string, lineItemId: string): Promise<PurchaseRecord | null> {
    return this.records.get(`${planId}/${lineItemId}`) ?? null;
  }

  async listByPlan(planId: string): Promise<PurchaseRecord[]> {
    return [...this.records.values()]
      .filter((record) => record.planId === planId)
      .sort((a, b) => (a.lineItemId < b.lineItemId ? -1 : a.lineItemId > b.lineItemId ? 1 : 0));
  }

  async listByOrg(orgId: string): Promise<PurchaseRecord[]> {
    return [...this.records.values()]
      .filter((record) => record.orgId === orgId)
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  }

  async claim(ref: PurchaseRecordRef, claim: PurchaseClaim): Promise<PurchaseRecord | null> {
    return this.#transition(
      ref,
      (record) =>
        record.status === 'queued' ||
        (record.status === 'purchasing' && record.claim !== null && record.claim.expiresAt < claim.claimedAt),
      (record) => ({
        ...record,
        status: 'purchasing',
        claim,
        updatedAt: claim.claimedAt,
        firstClaimedAt: record.firstClaimedAt ?? claim.claimedAt,
        attempts: record.attempts + 1,
      }),
    );
  }

  async finish(
    ref: PurchaseRecordRef,
    attemptId: string,
    outcome: PurchaseOutcome,
    at: string,
  ): Promise<PurchaseRecord | null> {
    if (outcome.status === 'completed') {
      return this.#transition(
        ref,
        (record) => record.status === 'purchasing',
        (record) => ({
          ...record,
          status: 'completed',
          providerIds: [...outcome.providerIds],
          upfrontCost: outcome.upfrontCost,
          recurringCost: outcome.recurringCost,
          providerQuantity: outcome.providerQuantity,
          completedAt: at,
          updatedAt: at,
          error: null,
          errorCode: null,
          claim: null,
        }),
      );
    }
    return this.#transition(
      ref,
      (record) => record.status === 'purchasing' && record.claim?.attemptId === attemptId,
      (record) => ({
        ...record,
        status: outcome.status,
        error: outcome.reason,
        errorCode: outcome.code,
        updatedAt: at,
        claim: null,
      }),
    );
  }

  async refuse(
    ref: PurchaseRecordRef & Pick<PurchaseRecord, 'attempts'>,
    reason: string,
    code: string,
    at: string,
  ): Promise<PurchaseRecord | null> {
    return this.#transition(
      ref,
      (record) => record.status === 'queued' && record.attempts === ref.attempts,
      (record) => ({ ...record, status: 'failed', error: reason, errorCode: code, updatedAt: at }),
    );
  }

  async requeue(
    ref: PurchaseRecordRef,
    at: string,
    limitPrice?: PurchaseLimitPrice,
  ): Promise<PurchaseRecord | null> {
    return this.#transition(
      ref,
      (record) => record.status === 'failed',
      (record) => ({
        ...record,
        status: 'queued',
        updatedAt: at,
        limitPrice: limitPrice ?? record.limitPrice,
      }),
    );
  }

  async completeByHand(
    ref: PurchaseRecordRef,
    completion: HandCompletion,
    at: string,
  ): Promise<PurchaseRecord | null> {
    return this.#transition(
      ref,
      (record) => record.status === 'manual',
      (record) => ({
        ...record,
        status: 'completed',
        reference: completion.reference,
        completedAt: at,
        updatedAt: at,
        upfrontCost: completion.upfrontCost,
        recurringCost: completion.recurringCost,
        providerQuantity: completion.providerQuantity,
        providerIds: [completion.reference],
      }),
    );
  }

  async markPurchasing(plan: PurchasingPlan): Promise<void> {
    const existing = this.markers.get(plan.planId);
    this.markers.set(plan.planId, { ...plan, since: existing?.since ?? plan.since });
  }

  async unmarkPurchasing(planId: string): Promise<void> {
    this.markers.delete(planId);
  }

  async purchasingPlans(): Promise<PurchasingPlan[]> {
    return [...this.markers.values()].sort((a, b) => a.planId.localeCompare(b.planId));
  }

  #transition(
    ref: PurchaseRecordRef,
    condition: (record: PurchaseRecord) => boolean,
    change: (record: PurchaseRecord) => PurchaseRecord,
  ): PurchaseRecord | null {
    const record = this.records.get(keyOf(ref));
    if (!record || !condition(record)) return null;
    const changed = change(record);
    this.records.set(keyOf(ref), changed);
    return changed;
  }
}

function keyOf(ref: PurchaseRecordRef): string {
  return `${ref.planId}/${ref.lineItemId}`;
}
