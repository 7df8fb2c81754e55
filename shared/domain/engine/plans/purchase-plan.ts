/**
 * The v2 purchase plan, recommended variant: the Recommended plan seen by the partner endpoints.
 * Its id is the Recommended plan's id (purchasing it buys that plan's line items) and its figures
 * are that plan's hourly figures. The segment, meta plan and execution policy are the org's
 * defaults for the provider, with ids derived from (org, provider) so they stay put across plans.
 */
import { deterministicUuid } from '../../deterministic-id';
import type { EngineInput } from '../shapes/engine-input';
import type { OfferContractType, OfferTerm, PaymentOption } from '../shapes/model';
import type {
  CommitmentPlan,
  ContractTypeSummary,
  ExecutionPolicy,
  IncludedContractSpec,
  LineItem,
  PlanReference,
  PlanUser,
  RecommendedPurchasePlan,
} from '../shapes/plan-shapes';
import { HOUR_MS, parseInstant } from '../shapes/window-time';
import { currentCoverage, type PortfolioTotals } from './figures';

export interface PurchasePlanInput {
  readonly input: EngineInput;
  readonly createdBy: PlanUser;
  readonly plan: CommitmentPlan;
  readonly lineItems: readonly LineItem[];
  /** All plans of the provider (the execution policy lists them). */
  readonly plans: readonly CommitmentPlan[];
  readonly totals: PortfolioTotals;
  /** Resource ids the plan's line items cover. */
  readonly resourceIds: readonly string[];
}

const PAYMENT_OPTIONS: readonly PaymentOption[] = ['No Upfront', 'Partial Upfront', 'All Upfront'];

const sortedUnique = <T extends string>(values: readonly T[]): T[] => [...new Set(values)].sort();

/** The payment option carrying the largest share of the plan's amortized cost (No Upfront if none). */
function preferredPaymentOption(lineItems: readonly LineItem[]): PaymentOption {
  const costOf = (option: PaymentOption) =>
    lineItems
      .filter((item) => item.payment_option === option)
      .reduce((sum, item) => sum + item.after_amortized_cost, 0);
  return PAYMENT_OPTIONS.reduce((best, option) => (costOf(option) > costOf(best) ? option : best));
}

function contractSpecs(lineItems: readonly LineItem[]): IncludedContractSpec[] {
  const specs = new Map<string, IncludedContractSpec>();
  for (const item of lineItems) {
    const spec = {
      commitment_type: item.offer.type,
      properties: { term: item.contract_term, payment_option: item.payment_option },
    };
    specs.set(JSON.stringify(spec), spec);
  }
  return [...specs.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([, spec]) => spec);
}

function summaries(lineItems: readonly LineItem[]): Record<string, ContractTypeSummary> {
  const result: Record<string, ContractTypeSummary> = {};
  for (const item of lineItems) {
    const previous = result[item.offer.type] ?? {
      line_items: 0,
      monthly_savings: 0,
      monthly_cost: 0,
      upfront_cost: 0,
    };
    result[item.offer.type] = {
      line_items: previous.line_items + 1,
      monthly_savings: previous.monthly_savings + item.monthly_savings,
      monthly_cost: previous.monthly_cost + item.monthly_cost,
      upfront_cost: previous.upfront_cost + item.upfront_cost,
    };
  }
  return result;
}

/** Midnight UTC of the first day of the calendar quarter after `ms`. */
function nextQuarterStart(ms: number): string {
  const date = new Date(ms);
  const quarterMonth = Math.floor(date.getUTCMonth() / 3) * 3 + 3;
  return new Date(Date.UTC(date.getUTCFullYear(), quarterMonth, 1)).toISOString();
}

function oneYearAfter(ms: number): string {
  const date = new Date(ms);
  date.setUTCFullYear(date.getUTCFullYear() + 1);
  return date.toISOString();
}

export function buildPurchasePlan(source: PurchasePlanInput): RecommendedPurchasePlan {
  const { input, plan, lineItems, createdBy } = source;
  const createdAtMs = parseInstant(input.createdAt, 'createdAt');
  const segmentId = deterministicUuid('segment', input.orgId, input.provider, 'default');
  const metaPlanId = deterministicUuid('meta-plan', input.orgId, input.provider);
  const reference = (entry: CommitmentPlan): PlanReference => ({
    id: entry.id,
    name: entry.name,
    created_at: entry.created_at,
  });
  const executionPolicy: ExecutionPolicy = {
    id: deterministicUuid('execution-policy', input.orgId, input.provider),
    org_id: input.orgId,
    meta_plan_id: metaPlanId,
    segment_id: segmentId,
    name: `Default ${input.provider} purchases`,
    description: 'Buys the recommended plan every quarter when it saves money; off until enabled.',
    default_plan_name: plan.name,
    created_at: input.createdAt,
    last_modified: input.createdAt,
    start_date: new Date(createdAtMs).toISOString(),
    end_date: oneYearAfter(createdAtMs),
    next_execution_date: nextQuarterStart(createdAtMs),
    schedule: 'quarterly',
    enabled: false,
    // Execute any plan that saves money at all.
    min_savings: 0,
    meta_plan: { id: metaPlanId, name: `Default ${input.provider} plans`, created_at: input.createdAt },
    created_by: createdBy,
    plans: source.plans.map(reference),
  };
  const windowStartMs = parseInstant(input.window.start, 'window.start');
  // A plan with a line that renews an owned commitment is a renewal (docs/plan-engine.md, Renewals).
  const isRenewal = lineItems.some((item) => item.startsAt !== null);
  return {
    id: plan.id,
    data_source: 'engine',
    name: plan.name,
    description: plan.description,
    segment_id: segmentId,
    meta_plan_id: metaPlanId,
    org_id: input.orgId,
    last_modified: null,
    plan_type: isRenewal ? 'renewal' : 'purchase',
    coverage_id: null,
    created_at: plan.created_at,
    is_calculating: false,
    is_saved: true,
    is_locked: false,
    max_upfront_cost: lineItems.reduce((sum, item) => sum + item.upfront_cost, 0),
    // Upfront options are compared at face value: no minimum return on paying upfront.
    minimum_upfront_interest_rate: 0,
    preferred_payment_option: preferredPaymentOption(lineItems),
    included_contract_types: sortedUnique(lineItems.map((item) => item.offer.type as OfferContractType)),
    included_contract_specs: contractSpecs(lineItems),
    included_contract_terms: sortedUnique(lineItems.map((item) => item.contract_term as OfferTerm)),
    recommend_within_covered_accounts: null,
    status: plan.status,
    is_recommended: true,
    is_default: true,
    is_renewal: isRenewal,
    execution_policy: executionPolicy,
    segment: {
      id: segmentId,
      name: 'Default',
      created_at: input.createdAt,
      is_default: true,
      provider: input.provider,
    },
    flagged_actions: [],
    created_by: createdBy,
    resource_ids: sortedUnique(source.resourceIds),
    reservation_ids: sortedUnique(
      input.commitments
        .filter((commitment) => commitment.provider === input.provider)
        .map((commitment) => commitment.id),
    ),
    // One form for both ends: `window.start` may be written without milliseconds.
    start_date: new Date(windowStartMs).toISOString(),
    end_date: new Date(windowStartMs + input.window.hours * HOUR_MS).toISOString(),
    covered_ondemand_cost: plan.covered_ondemand_cost_hourly,
    before_ondemand_cost: plan.before_ondemand_cost_hourly,
    before_reserved_cost: plan.before_reserved_cost_hourly,
    amortized_cost: plan.amortized_cost_hourly,
    recurring_cost: plan.recurring_cost_hourly,
    upfront_cost: plan.upfront_cost_hourly,
    before_cost: plan.before_cost_hourly,
    after_cost: plan.after_cost_hourly,
    total_cost: plan.total_cost_hourly,
    savings: plan.savings_hourly,
    fee: plan.fee_hourly,
    commitment_coverage: plan.commitment_coverage,
    minimum_commitment_cost: plan.minimum_commitment_cost,
    breakeven_hours: plan.breakeven_hours,
    total_savings: plan.total_savings,
    monthly_savings: plan.monthly_savings,
    total_monthly_before_cost: plan.total_monthly_before_cost,
    max_term: plan.max_term ?? '',
    aggregate_metrics: {
      potential_coverage: plan.commitment_coverage,
      current_coverage: currentCoverage(source.totals),
      summaries: summaries(lineItems),
    },
  };
}
