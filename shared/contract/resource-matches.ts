import * as z from 'zod/mini';
import { usageType } from './enums';
import { calendarDate, uuid } from './formats';
import { described, named } from './schema-registry';

/**
 * Resource matches: how a plan's line items cover individual resources. Money is USD; figures
 * are per hour unless named `monthly_*`.
 */

/**
 * A resource. The identifying fields are always present; the descriptive strings depend on the
 * provider and service (a database engine means nothing for a VM) and are left out when unknown.
 */
export const resource = /* @__PURE__ */ named(
  'Resource',
  () =>
    z.object({
      id: z.string(),
      resource_id: uuid,
      provider: z.string(),
      provider_resource_id: z.string(),
      is_spot: z.boolean(),
      usage_start: calendarDate,
      usage_end: calendarDate,
      tags: z.record(z.string(), z.string()),
      created_at: calendarDate,
      updated_at: calendarDate,
      has_ondemand_terms: z.boolean(),
      is_reservable: z.boolean(),
      vpc_networking_support: z.boolean(),
      management_account_id: z.optional(z.string()),
      owner_account_id: z.optional(z.string()),
      name: z.optional(z.string()),
      resource_group: z.optional(z.string()),
      instance_id: z.optional(z.string()),
      sku_title: z.optional(z.string()),
      sku_name: z.optional(z.string()),
      availability_zone: z.optional(z.string()),
      cache_engine: z.optional(z.string()),
      database_engine: z.optional(z.string()),
      description: z.optional(z.string()),
      family: z.optional(z.string()),
      full_region_name: z.optional(z.string()),
      instance_type: z.optional(z.string()),
      instance_type_family: z.optional(z.string()),
      license_model: z.optional(z.string()),
      location_type: z.optional(z.string()),
      normalization_size_factor: z.optional(z.string()),
      operating_system: z.optional(z.string()),
      pre_installed_sw: z.optional(z.string()),
      price_currency: z.optional(z.string()),
      provider_service: z.optional(z.string()),
      provider_sku_id: z.optional(z.string()),
      publication_date: z.optional(z.string()),
      region: z.optional(z.string()),
      service: z.optional(z.string()),
      tenancy: z.optional(z.string()),
      usage_type: z.optional(z.string()),
      version: z.optional(z.string()),
      ondemand_usage_unit: z.optional(z.string()),
    }),
  'A cloud resource whose usage a plan covers',
);
export type Resource = z.infer<typeof resource>;

const perHour = (text: string) => described(z.number(), `${text} (USD per hour)`);
const perMonth = (text: string) => described(z.number(), `${text} (USD per month)`);

export const resourceMatch = /* @__PURE__ */ named(
  'ResourceMatch',
  () =>
    z.object({
      id: uuid,
      total_units: described(z.number(), 'total usage units'),
      before_uncovered_units: described(z.number(), 'units uncovered before the plan'),
      after_covered_units: described(z.number(), 'units covered after the plan'),
      after_uncovered_units: described(z.number(), 'units left uncovered to avoid overcommitting'),
      ondemand_price: described(z.number(), 'on-demand cost per unit-hour (USD)'),
      if_all_ondemand_cost: perHour('cost if all units were paid on-demand'),
      before_ondemand_cost: perHour('on-demand cost of units not covered by existing commitments'),
      after_ondemand_cost: perHour('on-demand cost left after the plan'),
      covered_ondemand_cost: perHour('on-demand cost covered by the plan'),
      before_reserved_cost: perHour('cost of existing reservations'),
      after_reserved_cost: perHour('commitment cost after the plan'),
      before_cost: perHour('total cost before'),
      after_cost: perHour('total cost after'),
      monthly_before_cost: perMonth('total cost before'),
      monthly_after_cost: perMonth('total cost after'),
      monthly_after_reserved_cost: perMonth('commitment cost after'),
      monthly_after_ondemand_cost: perMonth('on-demand cost after'),
      average_savings: perHour('average savings'),
      average_monthly_savings: perMonth('average savings'),
      usage_type: usageType,
      coverage: described(
        z.number().check(z.gte(0), z.lte(1)),
        'fraction 0 to 1 of units covered by commitments',
      ),
      resource,
    }),
  'How a plan covers one resource',
);
export type ResourceMatch = z.infer<typeof resourceMatch>;
