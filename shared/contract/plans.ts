import * as z from 'zod/mini';
import { contractTerm, paymentOption, planStatus } from './enums';
import { dateTime, openObject, uuid } from './formats';
import { described, named } from './schema-registry';

/**
 * The v1 commitment plan and its line items. Money is USD; fields named `*_hourly` and the line
 * item's per-hour figures are per hour, `monthly_*` are hourly x 730, `total_*` cover the term.
 */

const perHour = (text: string) => described(z.number(), `${text} (USD per hour)`);

export const commitmentPlan = /* @__PURE__ */ named(
  'CommitmentPlan',
  () =>
    z.object({
      id: uuid,
      name: z.string(),
      org_id: uuid,
      created_at: dateTime,
      is_calculating: z.boolean(),
      status: planStatus,
      max_term: described(
        z.nullable(contractTerm),
        'term of the selected line that binds longest: longest lock-in, then longest term',
      ),
      covered_ondemand_cost_hourly: perHour('on-demand cost the plan covers'),
      before_ondemand_cost_hourly: perHour('on-demand cost before the plan'),
      before_reserved_cost_hourly: perHour('cost of existing commitments'),
      amortized_cost_hourly: perHour('amortized cost of the selected commitments (upfront plus recurring)'),
      recurring_cost_hourly: perHour('recurring cost of the selected commitments'),
      upfront_cost_hourly: z.number(),
      before_cost_hourly: perHour('total cost before the plan'),
      after_cost_hourly: perHour('total cost after the plan'),
      total_cost_hourly: z.number(),
      savings_hourly: perHour('savings versus before'),
      fee_hourly: perHour('estimated premium of the service'),
      commitment_coverage: described(
        z.number().check(z.gte(0), z.lte(1)),
        'fraction of the on-demand value of usage covered by commitments after the plan',
      ),
      minimum_commitment_cost: described(
        z.number(),
        'what must be paid even if usage stopped now: the lock-in exposure (USD)',
      ),
      breakeven_hours: described(
        z.number(),
        'hours of covered usage until avoided on-demand spend equals the commitments',
      ),
      total_savings: described(z.number(), 'savings over the terms (USD)'),
      monthly_savings: described(z.number(), 'savings per month (USD)'),
      total_monthly_before_cost: described(z.number(), 'cost per month before the plan (USD)'),
      description: z.optional(z.nullable(z.string())),
      catalog_version: z.optional(
        described(
          z.string(),
          'extension: the price catalog version the plan was priced with (`bundled`, or the time of the refresh that stored it; docs/catalog.md)',
        ),
      ),
    }),
  'A commitment plan (v1 shape)',
);
export type CommitmentPlan = z.infer<typeof commitmentPlan>;

export const offer = /* @__PURE__ */ named(
  'Offer',
  () =>
    z.object({
      id: uuid,
      provider: described(z.string(), 'upper-case provider name, e.g. `AWS`'),
      provider_offering_id: z.string(),
      type: z.string(),
      display_name: z.string(),
      leased_display_name: z.string(),
      region: z.string(),
      duration_seconds: z.number(),
      upfront_cost: described(z.number(), 'upfront payment per unit (USD)'),
      recurring_cost: perHour('recurring cost per unit'),
      offering_id: z.string(),
      product_description: z.string(),
      instance_family: z.string(),
      instance_type: z.string(),
      tenancy: z.string(),
      az: z.string(),
      is_multi_az: z.boolean(),
      is_flexible: z.boolean(),
      plan_type: z.string(),
      offering_class: described(z.string(), '`standard` or `convertible` for reservations'),
      payment_option: paymentOption,
    }),
  'A commitment offer of a cloud provider',
);
export type Offer = z.infer<typeof offer>;

export const contractSpec = /* @__PURE__ */ named('ContractSpec', () =>
  z.object({
    commitment_type: z.string(),
    properties: openObject,
    term: z.nullable(contractTerm),
    payment_option: z.nullable(paymentOption),
  }),
);
export type ContractSpec = z.infer<typeof contractSpec>;

export const lineItem = /* @__PURE__ */ named(
  'LineItem',
  () =>
    z.object({
      id: uuid,
      plan_id: uuid,
      offer_id: uuid,
      lease_menu_item_id: described(
        z.nullable(uuid),
        'leased-menu entry; null for offers that are not leased',
      ),
      account_id: described(z.string(), 'cloud account'),
      recommended_quantity: described(z.number(), 'recommended units to buy'),
      selected_quantity: described(z.number(), 'selected units to buy'),
      recommended_commitment: perHour('recommended commitment for savings plans; 0 for reservations'),
      selected_commitment: perHour('selected commitment for savings plans; 0 for reservations'),
      is_selected: described(z.boolean(), 'whether selected for purchase'),
      after_amortized_cost: perHour('amortized cost of the commitment (upfront plus recurring)'),
      upfront_cost: described(z.number(), 'total upfront payment (USD, not an hourly rate)'),
      recurring_cost: perHour('recurring cost'),
      before_cost: perHour('total cost before the commitment (on-demand plus existing reservations)'),
      before_ondemand_cost: perHour('on-demand cost before'),
      before_reserved_cost: perHour('cost of existing commitments'),
      covered_ondemand_cost: perHour('on-demand cost the commitment covers'),
      after_covered_units: described(z.number(), 'units covered after the plan is applied'),
      total_cost: described(z.number(), 'cost over the full term (USD)'),
      monthly_cost: described(z.number(), 'cost per month (USD)'),
      savings: perHour('savings versus on-demand'),
      monthly_savings: described(z.number(), 'average monthly savings versus on-demand (USD)'),
      total_savings: described(z.number(), 'savings over the term (USD)'),
      fee: perHour('estimated premium of the service, based on quoted maximum savings'),
      discount_rate: described(z.number(), 'discount versus on-demand, in percent'),
      breakeven_hours: described(
        z.number(),
        'usage hours needed until achieved savings exceed the remaining commitment',
      ),
      contract_term: contractTerm,
      payment_option: paymentOption,
      contract_spec: contractSpec,
      offer,
    }),
  'One offer of a commitment plan',
);
export type LineItem = z.infer<typeof lineItem>;
