import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ArmHttpRequest } from '../../../local/simulated-arm';
import type { Repositories } from '../../../shared/app/ports';
import { type ProcessorContext, processPurchase } from '../../../shared/app/purchase-processing';
import { loadCatalog } from '../../../shared/domain/catalog/catalog';
import type { ExistingCommitment, Offer, PlanStatus } from '../../../shared/domain/engine';
import type { PurchaseMessage } from '../../../shared/queue/purchase-queue';
import { MemoryPurchaseRepository } from '../../support/memory-purchase-store';
import { aPurchaseRecord } from '../../support/purchase-records';
import {
  armSubscriptionId,
  computeSavingsPlan,
  dsv5Reservation,
  simulatedArmTenant,
} from '../../support/simulated-arm-tenant';

/**
 * Exactly once for Azure (docs/purchases.md, Azure): random histories of the processor buying a
 * plan's Azure lines (reservations and a savings plan) through the `azure` marketplace from the
 * simulated tenant's ARM, with duplicated and redelivered messages, two consumers at once, ARM
 * refusing or throttling, and the processor killed at every step: before the PUT, after ARM
 * placed the order but before the answer arrived, while polling, and before or after every
 * storage write. After the history the queue drains. Every line must then have exactly one
 * order in the tenant (a refused one none), and its record must be `completed` with the ids ARM
 * answered, the plan `completed` or `needs_review`, each bought line owned once.
 *
 * The records live in MemoryPurchaseRepository, whose conditions agree with the DynamoDB
 * repository's on dynalite (test/integration/store/purchases.test.ts runs one contract on both).
 */

const RUNS = Number(process.env.AZURE_PURCHASE_MODEL_RUNS ?? 2_000);
const ORG = 'org-azure-model';
const PLAN = '7e1c2d3f-4a5b-4c6d-8e9f-a0b1c2d3e4f5';
const CLAIM_EXPIRY_SECONDS = 130;
const catalog = loadCatalog();
const offers: readonly [Offer, number][] = [
  [dsv5Reservation(), 8],
  [{ ...dsv5Reservation() }, 16],
  [computeSavingsPlan(), 1.5],
];

class Crash extends Error {}

type Step =
  | { readonly kind: 'deliver'; readonly pick: number; readonly twice: boolean }
  | { readonly kind: 'duplicate'; readonly pick: number }
  /** The next ARM request of this kind kills the invocation: before ARM sees it, or after ARM answered. */
  | { readonly kind: 'kill'; readonly at: 'PUT' | 'poll' | 'quote'; readonly after: boolean }
  | { readonly kind: 'crashWrite'; readonly at: number; readonly after: boolean }
  | { readonly kind: 'throttle'; readonly times: number }
  | { readonly kind: 'advance' };

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({ kind: fc.constant('deliver' as const), pick: fc.nat(9), twice: fc.boolean() }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('duplicate' as const), pick: fc.nat(9) }) },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('kill' as const),
      at: fc.constantFrom('PUT' as const, 'poll' as const, 'quote' as const),
      after: fc.boolean(),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('crashWrite' as const), at: fc.nat(6), after: fc.boolean() }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('throttle' as const), times: fc.integer({ min: 1, max: 6 }) }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('advance' as const) }) },
);

const scenario = fc.record({
  lines: fc.integer({ min: 1, max: offers.length }),
  /** ARM refuses the purchases (the app lacks the role). */
  denied: fc.boolean(),
  steps: fc.array(step, { maxLength: 20 }),
});

function kindOf(request: ArmHttpRequest): 'PUT' | 'poll' | 'quote' | 'read' {
  if (request.method === 'PUT') return 'PUT';
  if (request.method === 'POST') return 'quote';
  return /reservationOrders\/[^/]+$|savingsPlanOrderAliases\//i.test(request.path) ? 'poll' : 'read';
}

function world(s: { readonly lines: number; readonly denied: boolean }) {
  let now = Date.parse('2026-11-24T10:00:00Z');
  let ids = 0;
  let kill: { at: string; after: boolean } | null = null;
  let writeCrash: { at: number; after: boolean } | null = null;
  let writes = 0;
  const killed = (request: ArmHttpRequest, after: boolean) => {
    if (kill && kill.at === kindOf(request) && kill.after === after) {
      kill = null;
      throw new Crash(`killed ${after ? 'after' : 'before'} ${request.method} ${request.path}`);
    }
  };
  const arm = simulatedArmTenant({
    before: (request) => killed(request, false),
    after: (request) => killed(request, true),
    now: () => now,
  });
  if (s.denied) arm.subscription().purchase = { deny: true };
  const purchases = new MemoryPurchaseRepository();
  const records = offers.slice(0, s.lines).map(([offer, quantity], index) =>
    aPurchaseRecord({
      orgId: ORG,
      planId: PLAN,
      lineItemId: `line-${index}`,
      provider: 'azure',
      accountId: armSubscriptionId,
      offerId: offer.id,
      contractType: offer.contractType,
      quantity,
      instanceType: offer.scope.kind === 'family' ? 'Standard_D4s_v5' : null,
      limitPrice: { upfront: offer.upfront, hourly: offer.upfront / offer.termHours + offer.recurring },
    }),
  );
  const write = async <T>(run: () => Promise<T>): Promise<T> => {
    writes += 1;
    const crash = writeCrash && writeCrash.at === 0 ? writeCrash : null;
    if (writeCrash) writeCrash = writeCrash.at === 0 ? null : { ...writeCrash, at: writeCrash.at - 1 };
    if (crash && !crash.after) throw new Crash('crash before a write');
    const result = await run();
    if (crash?.after) throw new Crash('crash after a write');
    return result;
  };
  const crashing = new Proxy(purchases, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver);
      if (typeof value !== 'function') return value;
      return ['get', 'listByPlan', 'listByOrg', 'purchasingPlans'].includes(String(name))
        ? value.bind(target)
        : (...args: unknown[]) => write(() => value.apply(target, args));
    },
  });
  let status: PlanStatus = 'scheduled';
  const owned = new Map<string, ExistingCommitment>();
  const repos = {
    purchases: crashing,
    orgs: { get: async () => ({ id: ORG, maxUpfrontCost: null }) },
    plans: {
      getPlans: async () => [{ orgId: ORG, provider: 'azure', plan: { id: PLAN, status } }],
      changeStatus: (_o: string, _p: string, _id: string, change: { from: PlanStatus[]; to: PlanStatus }) =>
        write(async () => {
          if (change.from.includes(status)) status = change.to;
        }),
    },
    commitments: {
      putCommitment: (_org: string, commitment: ExistingCommitment) =>
        write(async () => {
          owned.set(commitment.id, commitment);
        }),
    },
    usage: { raisePlanInputsVersion: () => write(async () => true) },
  } as unknown as Repositories;
  const ctx: ProcessorContext = {
    repos,
    clock: { now: () => new Date(now) },
    ids: { uuid: () => `attempt-${++ids}` },
    marketplace: arm.marketplace,
    catalog: async () => catalog,
    planComputation: async () => ({ outcome: 'computed' as const, planSet: null, usageState: null }),
  };
  const pending: PurchaseMessage[] = records.map((record) => ({
    orgId: ORG,
    planId: PLAN,
    lineItemId: record.lineItemId,
  }));
  const deliver = async (message: PurchaseMessage): Promise<boolean> => {
    try {
      await processPurchase(ctx, message);
      return true;
    } catch (error) {
      if (error instanceof Crash || (error instanceof Error && error.name === 'PurchaseNotFinished'))
        return false;
      throw error;
    }
  };
  return {
    arm,
    purchases,
    owned,
    records,
    status: () => status,
    writes: () => writes,
    async setUp() {
      await purchases.createRecords(records);
    },
    async run(each: Step) {
      switch (each.kind) {
        case 'deliver': {
          if (pending.length === 0) return;
          const message = pending[each.pick % pending.length] as PurchaseMessage;
          const done = await Promise.all(
            each.twice ? [deliver(message), deliver(message)] : [deliver(message)],
          );
          if (done.some(Boolean)) pending.splice(pending.indexOf(message), 1);
          return;
        }
        case 'duplicate':
          if (pending.length > 0) pending.push(pending[each.pick % pending.length] as PurchaseMessage);
          return;
        case 'kill':
          kill = { at: each.at, after: each.after };
          return;
        case 'crashWrite':
          writeCrash = { at: each.at, after: each.after };
          return;
        case 'throttle':
          arm.subscription().purchase = { ...arm.subscription().purchase, throttle: each.times };
          return;
        case 'advance':
          now += CLAIM_EXPIRY_SECONDS * 1000;
          return;
      }
    },
    /** No more crashes or throttling: every message comes back after its visibility timeout until all settle. */
    async drain() {
      kill = null;
      writeCrash = null;
      const purchase = { ...arm.subscription().purchase };
      delete purchase.throttle;
      arm.subscription().purchase = purchase;
      for (let round = 0; round < 10; round++) {
        now += CLAIM_EXPIRY_SECONDS * 1000;
        for (const record of records)
          await deliver({ orgId: ORG, planId: PLAN, lineItemId: record.lineItemId });
        if (status === 'completed' || status === 'needs_review') return;
      }
    },
  };
}

describe('Azure purchases, exactly once', () => {
  it(`places one ARM order per line over ${RUNS} random histories with crashes at every step`, async () => {
    let histories = 0;
    let bought = 0;
    await fc.assert(
      fc.asyncProperty(scenario, async (s) => {
        // Prepare
        const w = world(s);
        await w.setUp();
        // Act
        for (const each of s.steps) await w.run(each);
        await w.drain();
        // Assess
        histories += 1;
        const orders = [...w.arm.reservationOrders(), ...w.arm.savingsPlanOrders()];
        const records = [...w.purchases.records.values()];
        if (s.denied) {
          expect(orders).toEqual([]);
          for (const record of records) {
            expect(record.status).toBe('failed');
            expect(['AuthorizationFailed', 'TooManyRequests']).toContain(record.errorCode);
          }
          expect(w.status()).toBe('needs_review');
          return;
        }
        // A line whose quote or PUT ARM throttled past the retries ends failed, nothing bought.
        const completed = records.filter((record) => record.status !== 'failed');
        for (const record of records.filter((each) => each.status === 'failed')) {
          expect(record.errorCode).toBe('TooManyRequests');
        }
        expect(orders).toHaveLength(completed.length);
        for (const record of completed) {
          expect(record.status, `${record.lineItemId}: ${record.error}`).toBe('completed');
          const order = orders.find((each) => record.providerIds[0] === each.order.id);
          const held = order && 'reservation' in order ? order.reservation.id : order?.plan.id;
          expect(record.providerIds).toEqual([order?.order.id, held]);
          expect(w.owned.get(record.id)).toBeDefined();
          bought += 1;
        }
        expect(w.owned.size).toBe(completed.length);
        expect(w.status()).toBe(completed.length === records.length ? 'completed' : 'needs_review');
      }),
      { numRuns: RUNS },
    );
    console.log(
      `Azure exactly-once model: ${histories} histories, ${bought} lines bought once each, 0 doubles`,
    );
    expect(histories).toBe(RUNS);
  });
});
