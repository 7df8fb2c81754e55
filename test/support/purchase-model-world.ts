import { applyPlan } from '../../shared/app/plan-application';
import type { AppContext, PlanContent, PlanScheduling, Repositories } from '../../shared/app/ports';
import { type ProcessorContext, processPurchase } from '../../shared/app/purchase-processing';
import { sweepPurchases } from '../../shared/app/purchase-sweep';
import type { ExistingCommitment, PlanStatus } from '../../shared/domain/engine';
import { ConflictError } from '../../shared/domain/errors';
import type { AppliedComputation } from '../../shared/domain/plans/applied-computation';
import type { StoredPlan } from '../../shared/domain/plans/plan-set';
import type { PurchaseMessage, PurchaseQueue } from '../../shared/queue/purchase-queue';
import { MemoryPurchaseRepository } from './memory-purchase-store';
import { ModelProvider } from './purchase-model-provider';
import {
  Crash,
  catalog,
  HISTORY_START,
  lineItemOf,
  ORG,
  offers,
  PLAN,
  type Scenario,
  type Step,
  USER,
  VISIBILITY_SECONDS,
} from './purchase-model-scenario';

/** One history's world: the stores, the clock, the queue and the provider. */
export function world(s: Scenario) {
  let now = HISTORY_START;
  let ids = 0;
  let crashAt: { readonly step: number; readonly when: 'before' | 'after' } | null = null;
  let steps = 0;
  const purchases = new MemoryPurchaseRepository();
  const startOf = (index: number) => {
    const delay = s.delays[index];
    return delay === null || delay === undefined ? null : HISTORY_START + delay * 1000;
  };
  const lineItems = offers.slice(0, s.lines).map((offer, index) => {
    const start = startOf(index);
    return lineItemOf(offer, index, start === null ? null : new Date(start).toISOString());
  });
  const starts = new Map<string, number>();
  lineItems.forEach((item, index) => {
    const start = startOf(index);
    if (start !== null) starts.set(item.id, start);
  });
  const refusedOffers = new Set(
    offers
      .slice(0, s.lines)
      .filter((_, i) => s.refused[i])
      .map((o) => o.id),
  );
  const provider = new ModelProvider(
    refusedOffers,
    (lineItemId) => purchases.records.get(`${PLAN}/${lineItemId}`)?.status,
    starts,
    () => now,
  );
  let plan: StoredPlan = {
    orgId: ORG,
    provider: 'aws',
    usageVersion: 1,
    planSeed: 'seed',
    sharing: 'organization',
    renewalHorizonDays: 30,
    window: { start: '2026-10-25T00:00:00Z', hours: 720 },
    plan: { id: PLAN, name: 'Recommended', status: 'new' } as StoredPlan['plan'],
    lineItemCount: lineItems.length,
    application: null,
  };
  const content = {
    planId: PLAN,
    orgId: ORG,
    provider: 'aws',
    createdAt: '2026-11-24T09:00:00Z',
    lineItems,
  } as unknown as PlanContent;
  const commitments = new Map<string, ExistingCommitment>();
  /** Every commitment write, redeliveries included: each id must be written the same every time. */
  const commitmentWrites: ExistingCommitment[] = [];
  /** Recomputations of the org's plans, with the commitments owned when each ran. */
  const recomputations: number[] = [];
  let inputsVersion = 1;
  let applied: AppliedComputation | null = null;
  let capLowered = false;
  const pending: PurchaseMessage[] = [];

  /** Every storage write and the provider call may be where the invocation dies, before or after it. */
  async function step<T>(write: () => Promise<T>): Promise<T> {
    await Promise.resolve();
    steps += 1;
    const crash = crashAt !== null && crashAt.step === steps ? crashAt : null;
    if (crash) crashAt = null;
    if (crash?.when === 'before') throw new Crash(`crash before write ${steps}`);
    const result = await write();
    if (crash?.when === 'after') throw new Crash(`crash after write ${steps}`);
    return result;
  }

  const crashingPurchases = new Proxy(purchases, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver);
      if (typeof value !== 'function') return value;
      const reads = ['get', 'listByPlan', 'listByOrg', 'purchasingPlans'];
      return reads.includes(String(name))
        ? value.bind(target)
        : (...args: unknown[]) => step(() => value.apply(target, args));
    },
  });

  const repos = {
    orgs: {
      placement: async (orgId: string) =>
        orgId === ORG ? { id: ORG, parentOrgId: null, isPartner: false } : null,
      // A capped org's operator lowers the cap after the apply: the processor checks it again.
      get: async (orgId: string) =>
        orgId === ORG ? { id: ORG, maxUpfrontCost: s.capped && capLowered ? -1 : null } : null,
    },
    plans: {
      planContent: async (orgId: string, planId: string) =>
        orgId === ORG && planId === PLAN ? content : null,
      planSet: async () => ({
        orgId: ORG,
        provider: 'aws',
        computed: { planIds: [PLAN] },
        calculation: null,
      }),
      getPlans: async (_orgId: string, _provider: string, planIds: readonly string[]) =>
        planIds.includes(PLAN) ? [plan] : [],
      appliedComputation: async () => applied,
      claimComputation: (
        _orgId: string,
        _provider: string,
        _version: number,
        claim: AppliedComputation,
        takeOverFrom?: string,
      ) =>
        step(async () => {
          const free =
            applied === null ||
            (applied.planId === claim.planId &&
              (applied.appliedBy === claim.appliedBy || applied.appliedBy === takeOverFrom));
          if (free) applied = claim;
          return applied as AppliedComputation;
        }),
      // The apply's last write, one transaction: the status change and the claim check, all or nothing.
      scheduleApplication: (scheduling: PlanScheduling) =>
        step(async () => {
          const failed = [
            ...(scheduling.from.includes(plan.plan.status) ? [] : ['plan_status' as const]),
            ...(applied?.planId === scheduling.planId && applied.appliedBy === scheduling.appliedBy
              ? []
              : ['computation_claim' as const]),
          ];
          if (failed.length > 0) return { scheduled: false, failed };
          const at = scheduling.at;
          plan = {
            ...plan,
            plan: { ...plan.plan, status: 'scheduled' },
            application: { appliedBy: scheduling.appliedBy, appliedAt: at, lastModified: at },
          };
          return { scheduled: true, plan };
        }),
      changeStatus: (
        _orgId: string,
        _provider: string,
        _planId: string,
        change: { from: readonly PlanStatus[]; to: PlanStatus; at: string; appliedBy?: string },
      ) =>
        step(async () => {
          if (!change.from.includes(plan.plan.status)) return null;
          plan = {
            ...plan,
            plan: { ...plan.plan, status: change.to },
            application: change.appliedBy
              ? { appliedBy: change.appliedBy, appliedAt: change.at, lastModified: change.at }
              : plan.application,
          };
          return plan;
        }),
    },
    purchases: crashingPurchases,
    commitments: {
      putCommitment: (_orgId: string, commitment: ExistingCommitment) =>
        step(async () => {
          commitments.set(commitment.id, commitment);
          commitmentWrites.push(commitment);
        }),
    },
    usage: {
      usageState: async () => ({ usageVersion: inputsVersion }),
      raisePlanInputsVersion: () =>
        step(async () => {
          inputsVersion += 1;
          return true;
        }),
    },
  } as unknown as Repositories;

  const queue: PurchaseQueue = {
    send: (messages) =>
      step(async () => {
        pending.push(...messages);
      }),
  };
  const base: AppContext = {
    repos,
    clock: { now: () => new Date(now) },
    ids: { uuid: () => `attempt-${++ids}` },
  };
  const processor: ProcessorContext = {
    ...base,
    marketplace: {
      purchase: (request) => {
        steps += 1;
        if (crashAt !== null && crashAt.step === steps) {
          provider.crashNext = crashAt.when;
          crashAt = null;
        }
        return provider.purchase(request);
      },
    },
    catalog: async () => catalog,
    planComputation: () =>
      step(async () => {
        recomputations.push(commitments.size);
        return { outcome: 'computed' as const, planSet: null, usageState: null };
      }),
  };
  const applying = { ...base, purchaseQueue: queue, catalog: async () => catalog };

  /** Whether the client's last apply died half-way (it saw a 5xx, and will send it again). */
  let applyCrashed = false;

  async function apply(): Promise<void> {
    try {
      await applyPlan(applying, USER, ORG, PLAN);
      applyCrashed = false;
    } catch (error) {
      if (error instanceof Crash) {
        applyCrashed = true;
        return;
      }
      // 409: applied already (by a concurrent apply, or earlier).
      if (!(error instanceof ConflictError)) throw error;
      applyCrashed = false;
    }
  }

  async function deliver(message: PurchaseMessage): Promise<boolean> {
    try {
      await processPurchase(processor, message);
      return true;
    } catch (error) {
      if (error instanceof Crash || (error instanceof Error && error.name === 'PurchaseNotFinished'))
        return false;
      throw error;
    }
  }

  return {
    provider,
    purchases,
    commitments,
    commitmentWrites,
    recomputations,
    pending,
    lineItems,
    refusedOffers,
    plan: () => plan,
    lowerCap: () => {
      capLowered = true;
    },
    inputsVersion: () => inputsVersion,
    apply,
    async run(step: Step): Promise<void> {
      switch (step.kind) {
        case 'apply':
          await (step.concurrent ? Promise.all([apply(), apply()]) : apply());
          return;
        case 'deliver': {
          if (pending.length === 0) return;
          const index = step.pick % pending.length;
          const message = pending[index] as PurchaseMessage;
          const results = await Promise.all(
            step.twice ? [deliver(message), deliver(message)] : [deliver(message)],
          );
          // Deleted once any consumer finished it; else it comes back after the visibility timeout.
          if (results.some(Boolean)) pending.splice(pending.indexOf(message), 1);
          return;
        }
        case 'duplicate':
          if (pending.length > 0) pending.push(pending[step.pick % pending.length] as PurchaseMessage);
          return;
        case 'crash':
          crashAt = { step: steps + step.at + 1, when: step.after ? 'after' : 'before' };
          return;
        case 'loseAnswer':
          provider.loseAnswer = step.afterBuying ? 'after' : 'before';
          return;
        case 'advance':
          now += step.seconds * 1000;
          return;
        case 'sweep':
          try {
            await sweepPurchases({ ...base, purchaseQueue: queue });
          } catch (error) {
            if (!(error instanceof Crash)) throw error;
          }
          return;
      }
    },
    /**
     * No more crashes: the client sends again an apply that failed, the sweep runs, the queue
     * redelivers until nothing is left.
     */
    async drain(): Promise<void> {
      crashAt = null;
      provider.loseAnswer = null;
      provider.crashNext = null;
      for (let round = 0; round < 20; round++) {
        now += VISIBILITY_SECONDS * 1000;
        if (plan.plan.status === 'new' || applyCrashed) await apply();
        await sweepPurchases({ ...base, purchaseQueue: queue }, 0);
        while (pending.length > 0) {
          const message = pending.shift() as PurchaseMessage;
          if (!(await deliver(message))) pending.push(message);
          if (!(await anyUnsettled())) break;
        }
        pending.length = 0;
        if (!(await anyUnsettled()) && plan.plan.status !== 'scheduled' && plan.plan.status !== 'in_progress')
          return;
      }
    },
  };

  async function anyUnsettled(): Promise<boolean> {
    return [...purchases.records.values()].some((r) => r.status === 'queued' || r.status === 'purchasing');
  }
}
