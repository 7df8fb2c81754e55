/**
 * computePlans: the default plans of one provider (docs/plan-engine.md), their line items and resource
 * matches, which of them is recommended, and the recommended purchase plan (v2).
 *
 * Per profile: reservations per group on the residual after existing commitments, then savings
 * plans per sharing key (the org, or each account) on what the reservations leave. Then what every profile's lines cover is
 * tallied in one pass over the usage, and each profile's figures are computed from it.
 * Groups, residuals and coverage curves are computed once and shared by the profiles.
 */

import { deterministicUuid } from '../../deterministic-id';
import { chooseReservations } from '../curves/offer-choice';
import { economicsCache, type PlannedLine } from '../curves/planned-line';
import { buildPlanningContext, type PlanningContext } from '../curves/planning-context';
import type { OfferEconomics } from '../curves/quantity';
import { type ReservationResult, type ReservationStage, reservationStage } from '../curves/reservation-stage';
import { type SavingsPlanResult, type SavingsPlanStage, savingsPlanStage } from '../curves/savings-plans';
import type { CoveragePool } from '../groups/coverage-pool';
import { type ResidualArena, residualArena } from '../groups/residual-arena';
import {
  buildResourceMatches,
  type MatchRange,
  type MatchTable,
  matchRange,
} from '../matches/resource-matches';
import { commitmentsAhead } from '../portfolio/commitments-ahead';
import { portfolioTotals } from '../portfolio/portfolio';
import { renewedHoldings, splitRenewals } from '../portfolio/renewal-split';
import { lineStart, type RenewalEnds, renewalEnds } from '../portfolio/renewal-starts';
import { DEFAULT_PROFILES, ENGINE_USER, type EngineInput, validateEngineInput } from '../shapes/engine-input';
import type { Offer, PlanProfile, Provider, UsageStream } from '../shapes/model';
import type { CommitmentPlan, LineItem, RecommendedPurchasePlan } from '../shapes/plan-shapes';
import { fullRange } from '../shapes/window-time';
import type { LineCoverage } from '../tallies/line-coverage';
import { tallyLines } from '../tallies/line-tallies';
import { type LineFigures, type PortfolioTotals, planFigures } from './figures';
import { buildLineItem, buyingAccount, coverageFigures, lineItemId } from './line-items';
import { buildPurchasePlan } from './purchase-plan';
import { allowedEconomics, fitsBudget, UPFRONT_FALLBACKS, upfrontOf } from './upfront-budget';

export interface ProfilePlan {
  readonly profile: PlanProfile;
  readonly plan: CommitmentPlan;
  readonly lineItems: readonly LineItem[];
  readonly resourceMatches: MatchTable;
}

export interface ProviderPlans {
  readonly provider: Provider;
  /** One per profile, in profile order. */
  readonly plans: readonly ProfilePlan[];
  /** The "Recommended" plan's id; null when there is no usage or no line item saves money. */
  readonly recommendedPlanId: string | null;
  /** The recommended plan as a v2 purchase plan; null exactly when recommendedPlanId is. */
  readonly purchasePlan: RecommendedPurchasePlan | null;
}

/**
 * What each default profile means, said by lock-in: the hazard is what orders the profiles (a higher
 * chance that usage goes away weighs a longer lock-in down more), while their coverage can come out
 * in any order, so a description never ranks it.
 */
const PROFILE_MEANINGS: Readonly<Record<PlanProfile['name'], string>> = {
  Recommended: 'weighs lock-in the most: prefers the shortest lock-ins',
  Balanced: 'weighs lock-in less: takes longer lock-ins than Recommended where they save more',
  'High Savings': 'ignores lock-in: takes the lock-ins that save the most on the lookback, however long',
};

export function planId(planSeed: string, profile: PlanProfile): string {
  return deterministicUuid('plan', planSeed, profile.name, String(profile.hazard));
}

function describeProfile(profile: PlanProfile): string {
  const percent = Number((profile.hazard * 100).toFixed(4));
  return `Assumes usage goes away with a ${percent}% chance per month; ${PROFILE_MEANINGS[profile.name]}.`;
}

/**
 * The term of the line that binds longest: the longest lock-in, then the longest term. A guaranteed
 * 30-day lease of a 3-year reservation bills 3 years but can be handed back after 30 days, so a plain
 * one-year line outranks it. Null when there is no line.
 */
function maxTerm(coverages: readonly LineCoverage[]): CommitmentPlan['max_term'] {
  let longest: LineCoverage | null = null;
  for (const coverage of coverages) {
    const offer = coverage.line.offer;
    const best = longest?.line.offer;
    if (
      !best ||
      offer.lockinHours > best.lockinHours ||
      (offer.lockinHours === best.lockinHours && offer.termHours > best.termHours)
    )
      longest = coverage;
  }
  return longest ? longest.line.offer.term : null;
}

/** What the profiles of one computePlans call share. */
interface SharedWork {
  readonly context: PlanningContext;
  readonly totals: PortfolioTotals;
  readonly reservations: ReservationStage;
  readonly savingsPlans: SavingsPlanStage;
  readonly view: MatchRange;
  readonly renewalEnds: RenewalEnds;
  /** A profile's reservation lines cut at the renewals of their groups (renewal-split.ts). */
  readonly splitRenewals: (lines: PlannedLine[]) => PlannedLine[];
}

/** A profile's lines, chosen and applied; their tallies are filled for all profiles at once. */
interface StagedProfile {
  readonly profile: PlanProfile;
  readonly reserved: ReservationResult;
  readonly spent: SavingsPlanResult;
}

function stageProfile(
  shared: SharedWork,
  profile: PlanProfile,
  economicsOf: (offer: Offer) => OfferEconomics = economicsCache(profile),
): StagedProfile {
  const reserved = shared.reservations.apply(
    shared.splitRenewals(
      chooseReservations(shared.context, economicsOf, commitmentsAhead(shared.context, profile)),
    ),
  );
  const spent = shared.savingsPlans.apply(reserved, economicsOf);
  return { profile, reserved, spent };
}

/**
 * The profile's lines within the upfront budget (upfront-budget.ts): `staged` when they fit, else
 * the profile chosen again with each fallback in turn. A fallback is staged on stages of its own,
 * so that the profiles' stages, which keep what the profile before chose, are left as they were.
 */
function withinBudget(shared: SharedWork, staged: StagedProfile, budget: number | null): StagedProfile {
  const upfront = (entry: StagedProfile) =>
    upfrontOf([...entry.reserved.coverages, ...entry.spent.coverages]);
  if (fitsBudget(upfront(staged), budget)) return staged;
  const economicsOf = economicsCache(staged.profile);
  let fallback = staged;
  for (const allowed of UPFRONT_FALLBACKS) {
    const own: SharedWork = {
      ...shared,
      reservations: reservationStage(shared.context.portfolio),
      savingsPlans: savingsPlanStage(shared.context),
    };
    fallback = stageProfile(own, staged.profile, allowedEconomics(economicsOf, allowed));
    if (fitsBudget(upfront(fallback), budget)) break;
  }
  return fallback;
}

function planForProfile(shared: SharedWork, { profile, reserved, spent }: StagedProfile): ProfilePlan {
  const { context, totals, view } = shared;
  const { input, portfolio } = context;
  const coverages = [...reserved.coverages, ...spent.coverages];

  const id = planId(input.planSeed, profile);
  const buyers = coverages.map((coverage) => buyingAccount(coverage, portfolio.streams));
  const ids = coverages.map((coverage, k) =>
    lineItemId(id, coverage.line.offer, buyers[k] as string, coverage.line.startsAt),
  );
  const matchSet = buildResourceMatches(portfolio, view, coverages, ids);
  const figures: LineFigures[] = coverages.map((coverage) => coverageFigures(coverage, portfolio.hours));
  const ends = shared.renewalEnds;
  const lineItems = coverages.map((coverage, k) =>
    buildLineItem(
      id,
      buyers[k] as string,
      coverage,
      figures[k] as LineFigures,
      portfolio.streams,
      portfolio.hours,
      matchSet.beforeReservedCost[k] ?? 0,
      coverage.line.startsAt !== undefined ? coverage.line.startsAt : lineStart(ends, coverage.line.pool),
    ),
  );
  const plan: CommitmentPlan = {
    id,
    name: profile.name,
    org_id: input.orgId,
    created_at: input.createdAt,
    is_calculating: false,
    status: 'new',
    max_term: maxTerm(coverages),
    ...planFigures(figures, totals),
    description: describeProfile(profile),
  };
  return { profile, plan, lineItems, resourceMatches: matchSet.matches };
}

/** The resources a plan's matches are about (a resource's `id` is its stream's resource id). */
function resourceIdsOf(matches: MatchTable, streams: readonly UsageStream[]): string[] {
  const ids: string[] = [];
  for (let k = 0; k < matches.size; k++) ids.push((streams[matches.streamAt(k)] as UsageStream).resourceId);
  return ids;
}

/**
 * `arena`: where the residuals after existing commitments go (residual-arena.ts). A caller that
 * computes plan after plan may pass the same one each time to reuse its memory: it is reset here,
 * and the plans returned hold figures and the input's usage, never a residual. Default: a fresh one.
 */
export function computePlans(input: EngineInput, arena: ResidualArena = residualArena()): ProviderPlans {
  validateEngineInput(input);
  arena.reset();
  return plansOf(buildPlanningContext(input, arena));
}

/** Cuts reservation stacks at their renewals; the lines as they are when nothing is renewed. */
function renewalSplitter(context: PlanningContext): (lines: PlannedLine[]) => PlannedLine[] {
  const { portfolio } = context;
  if (portfolio.renewed.length === 0) return (lines) => lines;
  const holdings = renewedHoldings(portfolio);
  const steps = new Map<CoveragePool, number>();
  for (const group of portfolio.groups) steps.set(context.groupPool(group), group.step);
  return (lines) => splitRenewals(lines, holdings, (pool) => steps.get(pool) ?? 0);
}

function plansOf(context: PlanningContext): ProviderPlans {
  const { input } = context;
  const shared: SharedWork = {
    context,
    totals: portfolioTotals(context.portfolio),
    reservations: reservationStage(context.portfolio),
    savingsPlans: savingsPlanStage(context),
    view: matchRange(context.portfolio, input.orgId, fullRange(input.window)),
    renewalEnds: renewalEnds(context.portfolio),
    splitRenewals: renewalSplitter(context),
  };
  const first = (input.profiles ?? DEFAULT_PROFILES).map((profile) => stageProfile(shared, profile));
  const budget = input.upfrontBudget ?? null;
  const staged = first.map((entry) => withinBudget(shared, entry, budget));
  // A profile chosen again is tallied beside the first choice: the next profile may keep lines of it.
  const replaced = first.filter((entry, k) => staged[k] !== entry);
  tallyLines(
    context.portfolio,
    [...staged, ...replaced].map(({ reserved, spent }) => ({
      reservations: reserved.fresh,
      savingsPlans: spent.fresh,
      covered: reserved.covered,
    })),
  );
  const plans = staged.map((entry) => planForProfile(shared, entry));
  const totals = shared.totals;
  const recommended = plans.find(
    (entry) => entry.profile.name === 'Recommended' && entry.lineItems.some((item) => item.savings > 0),
  );
  if (!recommended) return { provider: input.provider, plans, recommendedPlanId: null, purchasePlan: null };
  const purchasePlan = buildPurchasePlan({
    input,
    createdBy: input.createdBy ?? ENGINE_USER,
    plan: recommended.plan,
    lineItems: recommended.lineItems,
    plans: plans.map((entry) => entry.plan),
    totals,
    resourceIds: resourceIdsOf(recommended.resourceMatches, context.portfolio.streams),
  });
  return { provider: input.provider, plans, recommendedPlanId: recommended.plan.id, purchasePlan };
}
