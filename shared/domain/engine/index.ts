/**
 * The plan engine's public API (docs/plan-engine.md). Pure: no I/O, no clock, no AWS.
 */
export {
  type ChartInput,
  type CommitmentUse,
  chartSeries,
  commitmentUses,
  MAX_DAILY_POINTS,
} from './chart/chart';
export { type ResidualArena, residualArena } from './groups/residual-arena';
export type { LineResourceMatch, MatchTable } from './matches/resource-matches';
export { type LineSelection, resourceMatchesForWindow } from './matches/window-matches';
export { computePlans, type ProfilePlan, type ProviderPlans, planId } from './plans/plans';
export { DEFAULT_PROFILES, ENGINE_USER, type EngineInput } from './shapes/engine-input';
export type * from './shapes/model';
export { commitmentSharings } from './shapes/model';
export type * from './shapes/plan-shapes';
export {
  DEFAULT_RENEWAL_HORIZON_DAYS,
  isRenewalHorizonDays,
  MAX_RENEWAL_HORIZON_DAYS,
} from './shapes/plan-time';
export { resourceUuid } from './shapes/resources';
export { fullRange, HOURS_PER_MONTH, type HourRange, hourRangeForDates } from './shapes/window-time';
