/**
 * The engine's output shapes, field for field as the interface spec names them (snake_case).
 * `shared/contract` holds zod schemas of the same shapes; engine outputs must parse against them.
 */
import type { OfferContractType, OfferTerm, PaymentOption, UsageType } from './model';

export type PlanStatus =
  | 'new'
  | 'reviewed'
  | 'scheduled'
  | 'completed'
  | 'draft'
  | 'needs_review'
  | 'in_progress';

/** Number words of the spec's `<n>_month` terms: n = 2..11, 13..23, 25..34. */
export type MonthCountWord =
  | 'two'
  | 'three'
  | 'four'
  | 'five'
  | 'six'
  | 'seven'
  | 'eight'
  | 'nine'
  | 'ten'
  | 'eleven'
  | 'thirteen'
  | 'fourteen'
  | 'fifteen'
  | 'sixteen'
  | 'seventeen'
  | 'eighteen'
  | 'nineteen'
  | 'twenty'
  | 'twenty_one'
  | 'twenty_two'
  | 'twenty_three'
  | 'twenty_five'
  | 'twenty_six'
  | 'twenty_seven'
  | 'twenty_eight'
  | 'twenty_nine'
  | 'thirty'
  | 'thirty_one'
  | 'thirty_two'
  | 'thirty_three'
  | 'thirty_four';

/** The spec's line-item contract terms; the engine produces the catalog's `OfferTerm` subset. */
export type ContractTerm =
  | OfferTerm
  | 'three_month_gris'
  | 'six_month_gris'
  | 'two_year'
  | 'five_year'
  | 'zero_day'
  | 'thirty_day'
  | `${MonthCountWord}_month`;

/** Commitment plan, v1 shape. Hourly figures are USD per hour; monthly = hourly x 730. */
export interface CommitmentPlan {
  readonly id: string;
  readonly name: string;
  readonly org_id: string;
  readonly created_at: string;
  readonly is_calculating: boolean;
  readonly status: PlanStatus;
  readonly max_term: ContractTerm | null;
  readonly covered_ondemand_cost_hourly: number;
  readonly before_ondemand_cost_hourly: number;
  readonly before_reserved_cost_hourly: number;
  readonly amortized_cost_hourly: number;
  readonly recurring_cost_hourly: number;
  readonly upfront_cost_hourly: number;
  readonly before_cost_hourly: number;
  readonly after_cost_hourly: number;
  readonly total_cost_hourly: number;
  readonly savings_hourly: number;
  readonly fee_hourly: number;
  readonly commitment_coverage: number;
  readonly minimum_commitment_cost: number;
  readonly breakeven_hours: number;
  readonly total_savings: number;
  readonly monthly_savings: number;
  readonly total_monthly_before_cost: number;
  readonly description: string | null;
}

export interface ContractSpec {
  readonly commitment_type: string;
  readonly properties: Readonly<Record<string, string>>;
  readonly term: ContractTerm | null;
  readonly payment_option: PaymentOption | null;
}

/** The offer as carried inside a line item. */
export interface LineItemOffer {
  readonly id: string;
  readonly provider: string;
  readonly provider_offering_id: string;
  readonly type: string;
  readonly display_name: string;
  readonly leased_display_name: string;
  readonly region: string;
  readonly duration_seconds: number;
  readonly upfront_cost: number;
  readonly recurring_cost: number;
  readonly offering_id: string;
  readonly product_description: string;
  readonly instance_family: string;
  readonly instance_type: string;
  readonly tenancy: string;
  readonly az: string;
  readonly is_multi_az: boolean;
  readonly is_flexible: boolean;
  readonly plan_type: string;
  readonly offering_class: string;
  readonly payment_option: PaymentOption;
}

export interface LineItem {
  readonly id: string;
  readonly plan_id: string;
  readonly offer_id: string;
  readonly lease_menu_item_id: string;
  readonly account_id: string;
  readonly recommended_quantity: number;
  readonly selected_quantity: number;
  readonly recommended_commitment: number;
  readonly selected_commitment: number;
  readonly is_selected: boolean;
  readonly after_amortized_cost: number;
  readonly upfront_cost: number;
  readonly recurring_cost: number;
  readonly before_cost: number;
  readonly before_ondemand_cost: number;
  readonly before_reserved_cost: number;
  readonly covered_ondemand_cost: number;
  readonly after_covered_units: number;
  readonly total_cost: number;
  readonly monthly_cost: number;
  readonly savings: number;
  readonly monthly_savings: number;
  readonly total_savings: number;
  readonly fee: number;
  readonly discount_rate: number;
  readonly breakeven_hours: number;
  readonly contract_term: ContractTerm;
  readonly payment_option: PaymentOption;
  readonly contract_spec: ContractSpec;
  readonly offer: LineItemOffer;
  /**
   * Internal, not in the spec's line item (so camel case, and left out of every response): when a
   * renewal line's purchase starts, ISO 8601 (the end of the commitment it renews); null for a
   * line bought now (docs/plan-engine.md, Renewals).
   */
  readonly startsAt: string | null;
  /**
   * Internal, like startsAt: the line's place in its pool's stack of layers, 0 at the bottom
   * (docs/plan-engine.md, Layers); the resource-matches endpoint applies a pool's lines in this order.
   */
  readonly layer: number;
}

/** The resource inside a resource match. Dates are `YYYY-MM-DD`. */
export interface Resource {
  readonly id: string;
  readonly resource_id: string;
  readonly provider: string;
  readonly provider_resource_id: string;
  readonly is_spot: boolean;
  readonly usage_start: string;
  readonly usage_end: string;
  readonly tags: Readonly<Record<string, string>>;
  readonly created_at: string;
  readonly updated_at: string;
  readonly has_ondemand_terms: boolean;
  readonly is_reservable: boolean;
  readonly vpc_networking_support: boolean;
  readonly management_account_id: string;
  readonly owner_account_id: string;
  readonly name: string;
  readonly resource_group: string;
  readonly instance_id: string;
  readonly sku_title: string;
  readonly sku_name: string;
  readonly availability_zone: string;
  readonly cache_engine: string;
  readonly database_engine: string;
  readonly description: string;
  readonly family: string;
  readonly full_region_name: string;
  readonly instance_type: string;
  readonly instance_type_family: string;
  readonly license_model: string;
  readonly location_type: string;
  readonly normalization_size_factor: string;
  readonly operating_system: string;
  readonly pre_installed_sw: string;
  readonly price_currency: string;
  readonly provider_service: string;
  readonly provider_sku_id: string;
  readonly publication_date: string;
  readonly region: string;
  readonly service: string;
  readonly tenancy: string;
  readonly usage_type: string;
  readonly version: string;
  readonly ondemand_usage_unit: string;
}

/** One resource's share of one line item. Units are the resource's usage units; costs USD per hour. */
export interface ResourceMatch {
  readonly id: string;
  readonly total_units: number;
  readonly before_uncovered_units: number;
  readonly after_covered_units: number;
  readonly after_uncovered_units: number;
  readonly ondemand_price: number;
  readonly if_all_ondemand_cost: number;
  readonly before_ondemand_cost: number;
  readonly after_ondemand_cost: number;
  readonly covered_ondemand_cost: number;
  readonly before_reserved_cost: number;
  readonly after_reserved_cost: number;
  readonly before_cost: number;
  readonly after_cost: number;
  readonly monthly_before_cost: number;
  readonly monthly_after_cost: number;
  readonly monthly_after_reserved_cost: number;
  readonly monthly_after_ondemand_cost: number;
  readonly average_savings: number;
  readonly average_monthly_savings: number;
  readonly usage_type: UsageType;
  readonly coverage: number;
  readonly resource: Resource;
}

export interface PlanUser {
  readonly username: string;
  readonly id: string;
  readonly full_name: string;
}

export interface PlanReference {
  readonly id: string;
  readonly name: string;
  readonly created_at: string;
}

export interface ExecutionPolicy {
  readonly id: string;
  readonly org_id: string;
  readonly meta_plan_id: string;
  readonly segment_id: string;
  readonly name: string;
  readonly description: string;
  readonly default_plan_name: string;
  readonly created_at: string;
  readonly last_modified: string;
  readonly start_date: string;
  readonly end_date: string;
  readonly next_execution_date: string;
  readonly schedule: string;
  readonly enabled: boolean;
  readonly min_savings: number;
  readonly meta_plan: PlanReference;
  readonly created_by: PlanUser;
  readonly plans: readonly PlanReference[];
}

export interface Segment {
  readonly id: string;
  readonly name: string;
  readonly created_at: string;
  readonly is_default: boolean;
  readonly provider: string;
}

export interface FlaggedAction {
  readonly plan_id: string;
  readonly id: string;
  readonly org_id: string;
  readonly user_id: string;
  readonly provider: string;
  readonly action_type: string;
  readonly action_description: string | null;
  readonly status: string;
  readonly creation_time: string;
  readonly execution_time: string;
  readonly execution_info: unknown;
  readonly plan: {
    readonly name: string;
    readonly id: string;
    readonly is_default: boolean;
    readonly status: PlanStatus;
  };
}

export interface IncludedContractSpec {
  readonly commitment_type: string;
  readonly properties: Readonly<Record<string, string>>;
}

/** Purchase plan, v2 shape. */
export interface PurchasePlan {
  readonly id: string;
  readonly data_source: string;
  readonly name: string;
  readonly description: string | null;
  readonly segment_id: string;
  readonly meta_plan_id: string | null;
  readonly org_id: string;
  readonly last_modified: string | null;
  readonly plan_type: 'purchase' | 'renewal' | 'infrastructure';
  readonly coverage_id: string | null;
  readonly created_at: string;
  readonly is_calculating: boolean;
  readonly is_saved: boolean;
  readonly is_locked: boolean;
  readonly max_upfront_cost: number;
  readonly minimum_upfront_interest_rate: number;
  readonly preferred_payment_option: string;
  readonly included_contract_types: readonly OfferContractType[];
  readonly included_contract_specs: readonly IncludedContractSpec[];
  readonly included_contract_terms: readonly OfferTerm[];
  readonly recommend_within_covered_accounts: boolean | null;
  readonly status: PlanStatus;
  readonly is_recommended?: boolean;
  readonly is_default: boolean;
  readonly is_renewal: boolean;
  readonly execution_policy: ExecutionPolicy;
  readonly segment: Segment;
  readonly flagged_actions: readonly FlaggedAction[];
  readonly created_by: PlanUser;
  readonly resource_ids: readonly string[];
  readonly reservation_ids: readonly string[];
  readonly start_date?: string | null;
  readonly end_date?: string | null;
}

/** Per contract type: how many line items and what they add up to (monthly figures in USD). */
export interface ContractTypeSummary {
  readonly line_items: number;
  readonly monthly_savings: number;
  readonly monthly_cost: number;
  readonly upfront_cost: number;
}

export interface AggregateMetrics {
  /** Coverage (fraction of on-demand value) if the plan is applied. */
  readonly potential_coverage: number;
  /** Coverage by the commitments owned today. */
  readonly current_coverage: number;
  readonly summaries: Readonly<Record<string, ContractTypeSummary>>;
}

/** The recommended purchase plan: the v2 shape plus the Recommended plan's figures (hourly, USD). */
export interface RecommendedPurchasePlan extends PurchasePlan {
  readonly covered_ondemand_cost: number;
  readonly before_ondemand_cost: number;
  readonly before_reserved_cost: number;
  readonly amortized_cost: number;
  readonly recurring_cost: number;
  readonly upfront_cost: number;
  readonly before_cost: number;
  readonly after_cost: number;
  readonly total_cost: number;
  readonly savings: number;
  readonly fee: number;
  readonly commitment_coverage: number;
  readonly minimum_commitment_cost: number;
  readonly breakeven_hours: number;
  readonly total_savings: number;
  readonly monthly_savings: number;
  readonly total_monthly_before_cost: number;
  readonly max_term: string;
  readonly aggregate_metrics: AggregateMetrics;
}

/** One point of the commitments chart (see docs/plan-engine.md for each figure's definition). */
export interface ChartPoint {
  readonly date: string;
  readonly remaining_commit: number;
  readonly locked_commit: number;
  readonly unlocked_commit: number;
  readonly savings: number;
  readonly net_savings: number;
  readonly utilization: number;
  readonly unutilized_commit: number;
  readonly is_projection: boolean;
}
