import { afterEach, beforeEach, describe, expect, it, type MockInstance, vi } from 'vitest';
import {
  createPurchaseSweepHandler,
  type PurchaseSweepContext,
} from '../../../functions/purchase-sweep/purchase-sweep-handler';
import type { PurchaseQueue } from '../../../shared/app/ports';
import { systemClock } from '../../../shared/runtime/app-context';
import { MemoryPurchaseRepository } from '../../support/memory-purchase-store';
import { lambdaContext } from '../http/proxy-event';

/**
 * The purchase sweep runs every 30 seconds locally and on a schedule on AWS: a sweep with nothing
 * to send again is logged at DEBUG only, so the default level (INFO) stays quiet.
 */

describe('the purchase sweep log', () => {
  let stdout: MockInstance<typeof process.stdout.write>;

  beforeEach(() => {
    stdout = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  });

  afterEach(() => {
    stdout.mockRestore();
    vi.unstubAllEnvs();
  });

  function sweepLines(): Record<string, unknown>[] {
    return stdout.mock.calls
      .map(([chunk]) => String(chunk))
      .join('')
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((line) => line.message === 'purchase sweep');
  }

  /** A sweep over a store with a stale marker of a plan that no longer exists: nothing to resend. */
  async function sweepWithNothingToDo(): Promise<void> {
    const purchases = new MemoryPurchaseRepository();
    await purchases.markPurchasing({
      planId: 'gone',
      orgId: 'o',
      provider: 'aws',
      since: '2026-01-01T00:00:00Z',
    });
    const sent: unknown[] = [];
    const queue: PurchaseQueue = { send: async (messages) => void sent.push(...messages) };
    const ctx = {
      clock: systemClock,
      repos: { purchases, plans: { getPlans: async () => [] } },
      purchaseQueue: queue,
    } as unknown as PurchaseSweepContext;
    const result = await createPurchaseSweepHandler(() => ctx)({}, lambdaContext());
    expect(result).toEqual({ plans: 1, resent: 0, unsent: 0 });
    expect(sent).toEqual([]);
  }

  it('prints nothing at the default level when nothing was sent again', async () => {
    // Prepare
    vi.stubEnv('POWERTOOLS_LOG_LEVEL', 'INFO');

    // Act
    await sweepWithNothingToDo();

    // Assess
    expect(sweepLines()).toEqual([]);
  });

  it('says so at DEBUG', async () => {
    // Prepare
    vi.stubEnv('POWERTOOLS_LOG_LEVEL', 'DEBUG');

    // Act
    await sweepWithNothingToDo();

    // Assess
    expect(sweepLines()).toMatchObject([{ level: 'DEBUG', resent: 0, unsent: 0 }]);
  });
});
