import { expect } from 'vitest';
import type { ApiResponse } from './api-client';
import { waitFor } from './wait-for';

/** A plan as the API answers it, once the processor has settled it. */
export interface SettledPlan {
  readonly id: string;
  readonly status: 'completed' | 'needs_review';
  readonly [field: string]: unknown;
}

/**
 * Reads a plan (`read` is one GET of it) until the processor has settled it (completed or
 * needs_review) and answers it: the processor buys line by line, so this waits for that condition,
 * not for a time. `whileWaiting` runs between two reads, for a test that makes other requests while
 * the processor buys.
 */
export function settledPlanOf(
  read: () => Promise<ApiResponse>,
  whileWaiting: () => Promise<unknown> = async () => undefined,
): Promise<SettledPlan> {
  return waitFor(async () => {
    const response = await read();
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    if (response.body.status === 'completed' || response.body.status === 'needs_review') return response.body;
    await whileWaiting();
    return undefined;
  });
}
