import { randomUUID } from 'node:crypto';
import type { AppContext, Clock, IdGenerator } from '../app/ports';
import { residualArena } from '../domain/engine';
import { createCachingStore } from '../store/store';
import type { TableClient } from '../store/table-client';

export const systemClock: Clock = { now: () => new Date() };

export const randomIds: IdGenerator = { uuid: () => randomUUID() };

/**
 * The use cases' context on one table, with the real clock and random ids. One per process: its
 * repositories hold the process's caches (`createCachingStore`; docs/architecture.md, Caches), and
 * it holds the memory the plan engine reuses between computations.
 */
export function createAppContext(table: TableClient): AppContext {
  return {
    repos: createCachingStore(table, systemClock),
    clock: systemClock,
    ids: randomIds,
    engineMemory: residualArena(),
  };
}
