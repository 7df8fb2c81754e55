import { randomUUID } from 'node:crypto';
import { computingPlansHere } from '../app/plan-computation';
import type {
  AppContext,
  Clock,
  ContextWith,
  IdGenerator,
  Repositories,
  WithPlanComputation,
} from '../app/ports';
import { residualArena } from '../domain/engine';
import type { ResidualArena } from '../domain/engine/groups/residual-arena';
import { buildRepositories, createCachingStore, type RepositoryBuilders } from '../store/store';
import type { TableClient } from '../store/table-client';

export const systemClock: Clock = { now: () => new Date() };

export const randomIds: IdGenerator = { uuid: () => randomUUID() };

/**
 * The use cases' context on one table, with the real clock (or the one a test moves) and random
 * ids, and every repository. One per process: its repositories hold the process's caches (`createCachingStore`;
 * docs/architecture.md, Caches), and it holds the memory the plan engine reuses between
 * computations, which run in this process (the local runtime, tools, tests).
 */
export function createAppContext(
  table: TableClient,
  clock: Clock = systemClock,
): WithPlanComputation<AppContext> {
  return computingPlansHere({
    repos: createCachingStore(table, clock),
    clock,
    ids: randomIds,
    engineMemory: residualArena(),
  });
}

export interface FunctionContextOptions {
  /**
   * The engine's reusable memory (`residualArena`), for the functions that compute plans: one
   * per container, as a warm Lambda computes plan after plan. The others leave it out, and with
   * it the engine's code.
   */
  readonly engineMemory?: () => ResidualArena;
}

/**
 * The context of one Lambda function: the repositories its use cases name (and no other, so its
 * bundle carries no other repository's code), the real clock and random ids.
 */
export function createFunctionContext<K extends keyof Repositories>(
  table: TableClient,
  builders: RepositoryBuilders<K>,
  options: FunctionContextOptions = {},
): ContextWith<K> {
  return {
    repos: buildRepositories(builders, table, systemClock),
    clock: systemClock,
    ids: randomIds,
    ...(options.engineMemory ? { engineMemory: options.engineMemory() } : {}),
  };
}
