import * as z from 'zod/mini';
import {
  contractTerm,
  contractType,
  includedContractTerm,
  paymentOption,
  planStatus,
  purchasePlanProvider,
  purchasePlanType,
} from './enums';
import { dateTime, emailAddress, openObject, uuid } from './formats';
import { singleValue } from './query';
import { described, named } from './schema-registry';

/** The v2 purchase plan (#12, #13) and the objects inside it. */

export const createdBy = /* @__PURE__ */ named(
  'CreatedBy',
  () => z.object({ username: z.string(), id: z.string(), full_name: z.string() }),
  'The user who created an object',
);
export type CreatedBy = z.infer<typeof createdBy>;

const planReference = /* @__PURE__ */ z.lazy(() =>
  z.object({ id: z.string(), name: z.string(), created_at: dateTime }),
);

export const executionPolicy = /* @__PURE__ */ named(
  'ExecutionPolicy',
  () =>
    z.object({
      id: uuid,
      org_id: uuid,
      meta_plan_id: uuid,
      segment_id: uuid,
      name: z.string(),
      description: z.string(),
      default_plan_name: z.string(),
      created_at: dateTime,
      last_modified: dateTime,
      start_date: dateTime,
      end_date: dateTime,
      next_execution_date: dateTime,
      schedule: described(z.string(), 'how often the policy runs, e.g. `quarterly`'),
      enabled: z.boolean(),
      min_savings: z.number(),
      meta_plan: planReference,
      created_by: createdBy,
      plans: z.array(planReference),
    }),
  'When and how a purchase plan is executed',
);
export type ExecutionPolicy = z.infer<typeof executionPolicy>;

export const segment = /* @__PURE__ */ named(
  'Segment',
  () =>
    z.object({
      id: z.string(),
      name: z.string(),
      created_at: dateTime,
      is_default: z.boolean(),
      provider: z.string(),
    }),
  'A part of the organization a plan is computed for',
);
export type Segment = z.infer<typeof segment>;

export const flaggedAction = /* @__PURE__ */ named(
  'FlaggedAction',
  () =>
    z.object({
      plan_id: z.string(),
      id: z.string(),
      org_id: z.string(),
      user_id: z.string(),
      provider: z.string(),
      action_type: z.string(),
      action_description: z.nullable(z.string()),
      status: described(z.string(), 'e.g. `submitted`'),
      creation_time: dateTime,
      execution_time: dateTime,
      execution_info: z.nullable(openObject),
      plan: z.object({ name: z.string(), id: uuid, is_default: z.boolean(), status: planStatus }),
    }),
  'An action on a plan that awaits or received execution',
);
export type FlaggedAction = z.infer<typeof flaggedAction>;

const purchasePlanFields = () => ({
  id: uuid,
  data_source: z.string().check(z.maxLength(20)),
  name: z.string(),
  description: z.nullable(z.string()),
  segment_id: z.string().check(z.maxLength(50)),
  meta_plan_id: z.nullable(uuid),
  org_id: z.string().check(z.maxLength(50)),
  last_modified: z.nullable(dateTime),
  plan_type: purchasePlanType,
  coverage_id: z.nullable(uuid),
  created_at: dateTime,
  is_calculating: z.boolean(),
  is_saved: z.boolean(),
  is_locked: z.boolean(),
  max_upfront_cost: z.number(),
  minimum_upfront_interest_rate: z.number(),
  preferred_payment_option: paymentOption,
  included_contract_types: z.array(contractType),
  included_contract_specs: z.array(z.object({ commitment_type: z.string(), properties: openObject })),
  included_contract_terms: z.array(includedContractTerm),
  recommend_within_covered_accounts: z.nullable(z.boolean()),
  status: planStatus,
  is_recommended: z.optional(z.boolean()),
  is_default: z.boolean(),
  is_renewal: z.boolean(),
  execution_policy: executionPolicy,
  segment,
  flagged_actions: z.array(flaggedAction),
  created_by: createdBy,
  resource_ids: z.array(z.string()),
  reservation_ids: z.array(z.string()),
  start_date: z.optional(z.nullable(dateTime)),
  end_date: z.optional(z.nullable(dateTime)),
});

export const purchasePlan = /* @__PURE__ */ named(
  'PurchasePlan',
  () => z.object(purchasePlanFields()),
  'A purchase plan (v2 shape)',
);
export type PurchasePlan = z.infer<typeof purchasePlan>;

export const recommendedPurchasePlan = /* @__PURE__ */ named(
  'RecommendedPurchasePlan',
  () =>
    z.object({
      ...purchasePlanFields(),
      covered_ondemand_cost: z.number(),
      before_ondemand_cost: z.number(),
      before_reserved_cost: z.number(),
      amortized_cost: z.number(),
      recurring_cost: z.number(),
      upfront_cost: z.number(),
      before_cost: z.number(),
      after_cost: z.number(),
      total_cost: z.number(),
      savings: z.number(),
      fee: z.number(),
      commitment_coverage: z.number().check(z.gte(0), z.lte(1)),
      minimum_commitment_cost: z.number(),
      breakeven_hours: z.number(),
      total_savings: z.number(),
      monthly_savings: z.number(),
      total_monthly_before_cost: z.number(),
      max_term: contractTerm,
      aggregate_metrics: z.object({
        potential_coverage: z.number(),
        current_coverage: z.number(),
        summaries: openObject,
      }),
    }),
  'The purchase plan (v2 shape) recommended for an organization and provider, with its figures',
);
export type RecommendedPurchasePlan = z.infer<typeof recommendedPurchasePlan>;

/** #12: the provider the recommended purchase plan is asked for. */
export const recommendedPurchasePlanQuery = /* @__PURE__ */ z.lazy(() =>
  z.strictObject({
    provider: singleValue(purchasePlanProvider),
  }),
);
export type RecommendedPurchasePlanQuery = z.infer<typeof recommendedPurchasePlanQuery>;

/** #13: the user executing the purchase. */
export const purchasePlanBody = /* @__PURE__ */ named('PurchasePlanRequest', () =>
  z.strictObject({ email: described(emailAddress, 'the user executing the purchase') }),
);
export type PurchasePlanBody = z.infer<typeof purchasePlanBody>;
