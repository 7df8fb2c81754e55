import type { IdempotencyClaim, IdempotencyRepository } from '../../shared/app/ports';
import {
  idempotencyExpiresAt,
  inFlightExpiryMs,
  recordStanding,
  type StoredResponse,
} from '../../shared/domain/idempotency';

interface MemoryRecord {
  readonly fingerprint: string;
  readonly attemptId: string;
  readonly status: 'in_flight' | 'completed';
  readonly inFlightUntil: number;
  readonly expiresAt: number;
  readonly response?: StoredResponse;
}

/**
 * The idempotency port in memory, with the store's rules (`recordStanding`), for tests of what
 * uses the port; the DynamoDB repository has its own tests against dynalite.
 */
export class MemoryIdempotencyRecords implements IdempotencyRepository {
  readonly records = new Map<string, MemoryRecord>();

  async begin(claim: IdempotencyClaim, now: Date): ReturnType<IdempotencyRepository['begin']> {
    const id = recordId(claim);
    const existing = this.records.get(id);
    const standing = existing ? recordStanding(existing, claim.fingerprint, now.getTime()) : 'free';
    if (standing === 'free') {
      this.records.set(id, {
        fingerprint: claim.fingerprint,
        attemptId: claim.attemptId,
        status: 'in_flight',
        inFlightUntil: now.getTime() + inFlightExpiryMs,
        expiresAt: idempotencyExpiresAt(now.getTime()),
      });
      return { outcome: 'started' };
    }
    if (standing === 'replay' && existing?.response)
      return { outcome: 'replay', response: existing.response };
    return { outcome: standing === 'replay' ? 'in_flight' : standing };
  }

  async complete(claim: IdempotencyClaim, response: StoredResponse, now: Date): Promise<boolean> {
    const existing = this.records.get(recordId(claim));
    if (existing?.attemptId !== claim.attemptId || existing.status !== 'in_flight') return false;
    this.records.set(recordId(claim), {
      ...existing,
      status: 'completed',
      response,
      expiresAt: idempotencyExpiresAt(now.getTime()),
    });
    return true;
  }

  async release(claim: IdempotencyClaim): Promise<void> {
    const existing = this.records.get(recordId(claim));
    if (existing?.attemptId === claim.attemptId && existing.status === 'in_flight') {
      this.records.delete(recordId(claim));
    }
  }
}

function recordId(claim: IdempotencyClaim): string {
  return `${claim.scope}\u001f${claim.key}`;
}
