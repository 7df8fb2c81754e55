import type { StoredResponse } from '../../domain/idempotency';

/** The port of the records behind the Idempotency-Key header (docs/http.md). */

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
