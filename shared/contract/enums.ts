import * as z from 'zod/mini';
import { cloudProviders } from '../domain/cloud-providers';
import { usageTypes } from '../domain/engine/shapes/model';
import { membershipRoles } from '../domain/orgs';
import { englishNumberWords } from './number-words';
import { named } from './schema-registry';

/**
 * The spec's enumerations, exactly as it lists them. Generated lists (month terms, leased
 * contract types) are built from the spec's rules rather than typed out, so they cannot drift
 * from those rules.
 */

/** Plan status values, shared by the v1 commitment plan and the v2 purchase plan. */
export const planStatuses = [
  'new',
  'reviewed',
  'scheduled',
  'completed',
  'draft',
  'needs_review',
  'in_progress',
] as const;
export const planStatus = /* @__PURE__ */ named('PlanStatus', () => z.enum(planStatuses));
export type PlanStatus = z.infer<typeof planStatus>;

export const membershipRole = /* @__PURE__ */ named('MembershipRole', () => z.enum(membershipRoles));
export type { MembershipRole } from '../domain/orgs';

export const checklistStatuses = ['available', 'warning', 'missing', 'unknown'] as const;
export const checklistStatus = /* @__PURE__ */ named('ChecklistStatus', () => z.enum(checklistStatuses));
export type ChecklistStatus = z.infer<typeof checklistStatus>;

export const paymentOptions = ['No Upfront', 'Partial Upfront', 'All Upfront'] as const;
export const paymentOption = /* @__PURE__ */ named('PaymentOption', () => z.enum(paymentOptions));
export type PaymentOption = z.infer<typeof paymentOption>;

export const usageType = /* @__PURE__ */ named('UsageType', () => z.enum(usageTypes));
export type UsageType = z.infer<typeof usageType>;

/** Providers of the v1 endpoints and the chart (#5, #6, #10). */
export const cloudProvider = /* @__PURE__ */ z.lazy(() => z.enum(cloudProviders));
export type { CloudProvider } from '../domain/cloud-providers';

/** Providers the v2 recommended purchase plan can be asked for (#12). */
export const purchasePlanProviders = [...cloudProviders, 'kubernetes', 'unknown'] as const;
export const purchasePlanProvider = /* @__PURE__ */ z.lazy(() => z.enum(purchasePlanProviders));
export type PurchasePlanProvider = z.infer<typeof purchasePlanProvider>;

export const purchasePlanTypes = ['purchase', 'renewal', 'infrastructure'] as const;
export const purchasePlanType = /* @__PURE__ */ named('PurchasePlanType', () => z.enum(purchasePlanTypes));
export type PurchasePlanType = z.infer<typeof purchasePlanType>;

/** The named line-item contract terms; the `<n>_month` terms follow them. */
const namedContractTerms = [
  'one_year_gris',
  'thirty_day_gris',
  'three_month_gris',
  'six_month_gris',
  'one_year',
  'two_year',
  'three_year',
  'five_year',
  'zero_day',
  'thirty_day',
] as const;

/** Month counts of the `<n>_month` terms: whole years (12, 24) are named by their years instead. */
const monthTermRanges = [
  [2, 11],
  [13, 23],
  [25, 34],
] as const;

function inclusiveRange(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, index) => from + index);
}

export type ContractTerm = (typeof namedContractTerms)[number] | `${string}_month`;

export const contractTerms: readonly [ContractTerm, ...ContractTerm[]] = [
  ...namedContractTerms,
  ...monthTermRanges.flatMap(([from, to]) =>
    inclusiveRange(from, to).map((months): ContractTerm => `${englishNumberWords(months)}_month`),
  ),
];
export const contractTerm = /* @__PURE__ */ named('ContractTerm', () => z.enum(contractTerms));

/** Terms a v2 purchase plan can include (`included_contract_terms`). */
export const includedContractTerms = ['one_year', 'three_year', 'one_year_gris', 'thirty_day_gris'] as const;
export const includedContractTerm = /* @__PURE__ */ named('IncludedContractTerm', () =>
  z.enum(includedContractTerms),
);
export type IncludedContractTerm = z.infer<typeof includedContractTerm>;

/** Contract types valid exactly as written. */
const fixedContractTypes = [
  'leased_db_ris',
  'db_ris',
  'leased_ris',
  'standard_ris',
  'compute_plans',
  'instance_plans',
  'convertible_ris',
  'ris',
  'sagemaker_plans',
  'leased_compute_plans',
  'leased_sagemaker_plans',
  'dynamodb',
  'leased_dynamodb',
] as const;

/** Contract types valid both as written and with the `leased_` prefix. */
const leasableContractTypes = [
  'apache_cassandra',
  'app_service',
  'azure_monitor',
  'arcdb',
  'backup',
  'cognitive_services',
  'container_apps',
  'container_instances',
  'cosmosdb',
  'data_explorer',
  'data_factory_v2',
  'databricks',
  'functions',
  'mariadb',
  'microsoft_defender',
  'microsoft_fabric',
  'mysql',
  'netapp_files',
  'postgresql',
  'redis_cache',
  'sentinel',
  'specialized_compute',
  'specialized_compute_avs',
  'specialized_compute_sap_hana',
  'specialized_compute_nutanix',
  'spring_cloud',
  'sql_database',
  'sql_edge',
  'sql_managed_instance',
  'storage',
  'synapse_analytics',
  'synapse_analytics_warehouse',
  'vm',
  'vml',
  'avs',
] as const;

type LeasableContractType = (typeof leasableContractTypes)[number];
export type ContractType =
  | (typeof fixedContractTypes)[number]
  | LeasableContractType
  | `leased_${LeasableContractType}`;

export const contractTypes: readonly [ContractType, ...ContractType[]] = [
  ...fixedContractTypes,
  ...leasableContractTypes.flatMap((type): ContractType[] => [type, `leased_${type}`]),
];
export const contractType = /* @__PURE__ */ named('ContractType', () => z.enum(contractTypes));
