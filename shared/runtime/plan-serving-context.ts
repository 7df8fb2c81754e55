import { residualArena } from '../domain/engine/residual-arena';
import { commitmentRepository, orgRepository, planRepository, usageRepository } from '../store/store';
import { functionContext } from './current';

/**
 * The context of the functions that serve plans and compute them when missing or stale (#5, #6,
 * #7, #12): the repositories plan computation reads and writes, and the engine's memory reused
 * from one computation to the next. It bundles no other repository.
 */
export const planServingContext = functionContext(
  { orgs: orgRepository, usage: usageRepository, commitments: commitmentRepository, plans: planRepository },
  { engineMemory: residualArena },
);
