/**
 * What `computePlans` takes, and the checks that keep the math well defined: every number finite,
 * usage arrays as long as the window, rates and hazards inside their ranges.
 */
import { ValidationError } from '../../errors';
import {
  type CommitmentSharing,
  commitmentSharings,
  type ExistingCommitment,
  type Offer,
  type PlanProfile,
  type Provider,
  type UsageStream,
  type UsageWindow,
} from './model';
import type { PlanUser } from './plan-shapes';
import { isRenewalHorizonDays, MAX_RENEWAL_HORIZON_DAYS } from './plan-time';
import { parseWindowStart } from './window-time';

export interface EngineInput {
  readonly orgId: string;
  readonly provider: Provider;
  readonly window: UsageWindow;
  /** Usage of any provider; only `provider`'s streams are planned for. */
  readonly streams: readonly UsageStream[];
  readonly commitments: readonly ExistingCommitment[];
  /** The catalog; only `provider`'s offers are used. */
  readonly offers: readonly Offer[];
  /** Whose usage commitments cover; default `organization` (the org setting `commitment_sharing`). */
  readonly sharing?: CommitmentSharing;
  /** Default: DEFAULT_PROFILES. */
  readonly profiles?: readonly PlanProfile[];
  /** Derived by the caller from org, provider and a usage fingerprint; seeds every id. */
  readonly planSeed: string;
  /**
   * ISO 8601; the plans' `created_at`, and the plan's clock: owned commitments count by where they
   * stand at it (plan-time.ts), not by the window's hours.
   */
  readonly createdAt: string;
  /**
   * Days before its end in which an owned commitment is renewed rather than counted (the org
   * setting `renewal_horizon_days`); default DEFAULT_RENEWAL_HORIZON_DAYS.
   */
  readonly renewalHorizonDays?: number;
  /**
   * The most the lines of one plan may pay upfront together, USD (the org's `max_upfront_cost`
   * less what its other purchases pay upfront in the 30 days it bounds); absent or null: no cap.
   */
  readonly upfrontBudget?: number | null;
  /** Who the plans are attributed to; default: the engine itself. */
  readonly createdBy?: PlanUser;
}

/** docs/plan-engine.md: the three default plans and their monthly hazards. */
export const DEFAULT_PROFILES: readonly PlanProfile[] = [
  { name: 'Recommended', hazard: 0.03 },
  { name: 'Balanced', hazard: 0.01 },
  { name: 'High Savings', hazard: 0 },
];

export const ENGINE_USER: PlanUser = { username: 'plan-engine', id: 'plan-engine', full_name: 'Plan engine' };

type Problems = Record<string, string[]>;

function check(problems: Problems, ok: boolean, field: string, message: string): void {
  if (ok) return;
  problems[field] ??= [];
  problems[field].push(message);
}

const isNonNegative = (value: number) => Number.isFinite(value) && value >= 0;

/** Usage values are checked where they are first summed (buildPortfolio), to read them only once. */
function checkStream(problems: Problems, stream: UsageStream, index: number): void {
  // The field's name is only written out for a stream that fails: there are tens of thousands.
  if (isNonNegative(stream.ondemandPrice)) return;
  check(problems, false, `streams[${index}].ondemandPrice`, 'must be a finite number >= 0');
}

function checkCommitment(problems: Problems, commitment: ExistingCommitment, index: number): void {
  const field = `commitments[${index}]`;
  for (const key of ['quantity', 'hourlyCommitment', 'upfrontCost', 'recurringCost'] as const) {
    check(problems, isNonNegative(commitment[key]), `${field}.${key}`, 'must be a finite number >= 0');
  }
  const start = Date.parse(commitment.start);
  const end = Date.parse(commitment.end);
  const lockinEnd = Date.parse(commitment.lockinEnd);
  check(problems, Number.isFinite(start), `${field}.start`, 'must be an ISO 8601 instant');
  check(
    problems,
    Number.isFinite(end) && end > start,
    `${field}.end`,
    'must be an ISO 8601 instant after start',
  );
  check(problems, Number.isFinite(lockinEnd), `${field}.lockinEnd`, 'must be an ISO 8601 instant');
  if (commitment.purchasedAt !== undefined) {
    check(
      problems,
      Number.isFinite(Date.parse(commitment.purchasedAt)),
      `${field}.purchasedAt`,
      'must be an ISO 8601 instant',
    );
  }
}

function checkOffer(problems: Problems, offer: Offer, index: number): void {
  const field = `offers[${index}]`;
  check(
    problems,
    offer.termHours > 0 && Number.isFinite(offer.termHours),
    `${field}.termHours`,
    'must be > 0',
  );
  check(
    problems,
    offer.lockinHours >= 0 && offer.lockinHours <= offer.termHours,
    `${field}.lockinHours`,
    'must be in [0, termHours]',
  );
  check(problems, isNonNegative(offer.upfront), `${field}.upfront`, 'must be a finite number >= 0');
  check(problems, isNonNegative(offer.recurring), `${field}.recurring`, 'must be a finite number >= 0');
  check(problems, offer.feeRate >= 0 && offer.feeRate <= 1, `${field}.feeRate`, 'must be in [0, 1]');
  if (offer.scope.kind === 'spend') {
    const ratesOk = offer.scope.rates.every((rate) => rate.discount >= 0 && rate.discount < 1);
    check(problems, ratesOk, `${field}.scope.rates`, 'discounts must be in [0, 1)');
  }
}

/** Throws ValidationError naming every field that would make the engine's numbers meaningless. */
export function validateEngineInput(input: EngineInput): void {
  const problems: Problems = {};
  parseWindowStart(input.window);
  check(
    problems,
    Number.isInteger(input.window.hours) && input.window.hours >= 0,
    'window.hours',
    'must be an integer >= 0',
  );
  check(problems, Number.isFinite(Date.parse(input.createdAt)), 'createdAt', 'must be an ISO 8601 instant');
  check(
    problems,
    input.renewalHorizonDays === undefined || isRenewalHorizonDays(input.renewalHorizonDays),
    'renewalHorizonDays',
    `must be an integer in [0, ${MAX_RENEWAL_HORIZON_DAYS}]`,
  );
  check(
    problems,
    input.upfrontBudget === undefined || input.upfrontBudget === null || Number.isFinite(input.upfrontBudget),
    'upfrontBudget',
    'must be a finite number of dollars or null',
  );
  check(
    problems,
    input.sharing === undefined || commitmentSharings.includes(input.sharing),
    'sharing',
    `must be one of ${commitmentSharings.join(', ')}`,
  );
  input.streams.forEach((stream, index) => {
    checkStream(problems, stream, index);
  });
  input.commitments.forEach((commitment, index) => {
    checkCommitment(problems, commitment, index);
  });
  input.offers.forEach((offer, index) => {
    checkOffer(problems, offer, index);
  });
  (input.profiles ?? []).forEach((profile, index) => {
    check(
      problems,
      profile.hazard >= 0 && profile.hazard < 1,
      `profiles[${index}].hazard`,
      'must be in [0, 1)',
    );
  });
  if (Object.keys(problems).length > 0)
    throw new ValidationError('The plan engine input is invalid', problems);
}
