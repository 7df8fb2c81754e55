import * as z from 'zod';
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
export const resource = named(
  'Resource',
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
    management_account_id: z.string().optional(),
    owner_account_id: z.string().optional(),
    name: z.string().optional(),
    resource_group: z.string().optional(),
    instance_id: z.string().optional(),
    sku_title: z.string().optional(),
    sku_name: z.string().optional(),
    availability_zone: z.string().optional(),
    cache_engine: z.string().optional(),
    database_engine: z.string().optional(),
    description: z.string().optional(),
    family: z.string().optional(),
    full_region_name: z.string().optional(),
    instance_type: z.string().optional(),
    instance_type_family: z.string().optional(),
    license_model: z.string().optional(),
    location_type: z.string().optional(),
    normalization_size_factor: z.string().optional(),
    operating_system: z.string().optional(),
    pre_installed_sw: z.string().optional(),
    price_currency: z.string().optional(),
    provider_service: z.string().optional(),
    provider_sku_id: z.string().optional(),
    publication_date: z.string().optional(),
    region: z.string().optional(),
    service: z.string().optional(),
    tenancy: z.string().optional(),
    usage_type: z.string().optional(),
    version: z.string().optional(),
    ondemand_usage_unit: z.string().optional(),
  }),
  'A cloud resource whose usage a plan covers',
);
export type Resource = z.infer<typeof resource>;

const perHour = (text: string) => described(z.number(), `${text} (USD per hour)`);
const perMonth = (text: string) => described(z.number(), `${text} (USD per month)`);

export const resourceMatch = named(
  'ResourceMatch',
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
    coverage: described(z.number().min(0).max(1), 'fraction 0 to 1 of units covered by commitments'),
    resource,
  }),
  'How a plan covers one resource',
);
export type ResourceMatch = z.infer<typeof resourceMatch>;
