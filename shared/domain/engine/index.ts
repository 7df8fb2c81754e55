/**
 * The plan engine's public API (docs/plan-engine.md). Pure: no I/O, no clock, no AWS.
 */
export { type ChartInput, type CommitmentUse, chartSeries, commitmentUses, MAX_DAILY_POINTS } from './chart';
export { DEFAULT_PROFILES, ENGINE_USER, type EngineInput } from './engine-input';
export type * from './model';
export { commitmentSharings } from './model';
export type * from './plan-shapes';
export {
  DEFAULT_RENEWAL_HORIZON_DAYS,
  isRenewalHorizonDays,
  MAX_RENEWAL_HORIZON_DAYS,
} from './plan-time';
export { computePlans, type ProfilePlan, type ProviderPlans, planId } from './plans';
export { type ResidualArena, residualArena } from './residual-arena';
export type { LineResourceMatch, MatchTable } from './resource-matches';
export { resourceUuid } from './resources';
export { type LineSelection, resourceMatchesForWindow } from './window-matches';
export { fullRange, HOURS_PER_MONTH, type HourRange, hourRangeForDates } from './window-time';
