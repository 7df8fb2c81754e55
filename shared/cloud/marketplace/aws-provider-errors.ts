/**
 * How the `aws` adapter reads the SDK's errors. A service error answered before anything was
 * bought becomes a `failed` result with the provider's message; an error of the buy call that
 * does not prove nothing was bought (a server fault, a timeout, no answer) becomes
 * PurchaseOutcomeUnknown, never `failed`: the next call with the same client token finds out.
 */
import { PurchaseOutcomeUnknown, type PurchaseResult } from '../../app/ports/marketplace';

interface ServiceError {
  readonly name: string;
  readonly message: string;
  readonly $fault: 'client' | 'server';
}

export function isServiceError(error: unknown): error is ServiceError {
  return (
    error instanceof Error && '$fault' in error && (error.$fault === 'client' || error.$fault === 'server')
  );
}

export type FailedPurchase = Extract<PurchaseResult, { status: 'failed' }>;

export function failedPurchase(error: ServiceError): FailedPurchase {
  return { status: 'failed', message: error.message, providerCode: error.name };
}

/** Runs a call that buys nothing: the provider's refusal is a `failed` result; anything else propagates. */
export async function lookup<T>(call: () => Promise<T>): Promise<T | FailedPurchase> {
  try {
    return await call();
  } catch (error) {
    if (isServiceError(error)) return failedPurchase(error);
    throw error;
  }
}

/**
 * Runs a lookup of what an earlier attempt may have bought. Its failure, even the provider's
 * refusal (a throttle is a client fault on EC2), leaves the outcome unknown: answering `failed`
 * here could record as failed a line item the earlier attempt bought.
 */
export async function lookupEarlier<T>(call: () => Promise<T>, what: string): Promise<T> {
  try {
    return await call();
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new PurchaseOutcomeUnknown(`${what}: could not look up what an earlier attempt bought (${reason})`);
  }
}

/** Runs the buy call: a client fault (the request was refused) is `failed`; anything else is an unknown outcome. */
export async function buy<T>(call: () => Promise<T>, what: string): Promise<T | FailedPurchase> {
  try {
    return await call();
  } catch (error) {
    if (isServiceError(error) && error.$fault === 'client') return failedPurchase(error);
    const reason = error instanceof Error ? error.message : String(error);
    throw new PurchaseOutcomeUnknown(`${what}: the provider did not say whether it bought (${reason})`);
  }
}

export function isFailed(value: unknown): value is FailedPurchase {
  return typeof value === 'object' && value !== null && (value as { status?: unknown }).status === 'failed';
}
