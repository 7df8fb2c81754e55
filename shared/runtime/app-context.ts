import { randomUUID } from 'node:crypto';
import { withThrottledKeyUse } from '../app/key-use-throttle';
import { withOrgPlacementCache } from '../app/org-placement-cache';
import { withPlanContentCache } from '../app/plan-content-cache';
import type { AppContext, Clock, IdGenerator } from '../app/ports';
import { residualArena } from '../domain/engine';
import { createStore } from '../store/store';
import type { TableClient } from '../store/table-client';

export const systemClock: Clock = { now: () => new Date() };

export const randomIds: IdGenerator = { uuid: () => randomUUID() };

/**
 * The use cases' context on one table, with the real clock and random ids. One per process: it
 * holds the process's caches (org placements, plan content, API key use records; docs/plans-api.md)
 * and the memory the plan engine reuses between computations.
 */
export function createAppContext(table: TableClient): AppContext {
  const repos = createStore(table);
  return {
    repos: {
      ...repos,
      orgs: withOrgPlacementCache(repos.orgs, systemClock),
      apiKeys: withThrottledKeyUse(repos.apiKeys, systemClock),
      plans: withPlanContentCache(repos.plans, systemClock),
    },
    clock: systemClock,
    ids: randomIds,
    engineMemory: residualArena(),
  };
}
