/**
 * The billing export formats an import reads (docs/import.md, Billing exports), told apart by
 * their columns. Each format names the columns its rows are mapped from; the readers read those
 * columns only, by name, so extra or missing unrelated columns change nothing.
 */

/** `usage-csv`: the project's own usage file; the others are provider exports. */
export const importFormats = ['usage-csv', 'cur2', 'cur', 'focus', 'azure-actual-cost'] as const;
export type ImportFormat = (typeof importFormats)[number];
export type ExportFormat = Exclude<ImportFormat, 'usage-csv'>;

export function isImportFormat(value: string): value is ImportFormat {
  return (importFormats as readonly string[]).includes(value);
}

/** AWS Data Exports CUR 2.0 (Parquet or CSV): snake-case columns and the `product` map. */
export const cur2Columns = {
  lineItemType: 'line_item_line_item_type',
  usageStart: 'line_item_usage_start_date',
  usageEnd: 'line_item_usage_end_date',
  productCode: 'line_item_product_code',
  usageType: 'line_item_usage_type',
  operation: 'line_item_operation',
  resourceId: 'line_item_resource_id',
  accountId: 'line_item_usage_account_id',
  usageAmount: 'line_item_usage_amount',
  region: 'product_region_code',
  instanceType: 'product_instance_type',
  publicOnDemandRate: 'pricing_public_on_demand_rate',
  capacityReservationStatus: 'capacity_reservation_capacity_reservation_status',
  /** map<string, string>: `operating_system`, `tenancy`, `database_engine`, `deployment_option`. */
  product: 'product',
} as const;

/**
 * Legacy Cost and Usage Report: product attributes as columns of their own, no `product` map.
 * Each column by either spelling: `lineItem/UsageStartDate` (CSV delivery) or
 * `line_item_usage_start_date` (Parquet delivered for Athena, which spells `category/attributeName`
 * as `category_attribute_name`).
 */
export const legacyCurColumns = {
  lineItemType: ['lineItem/LineItemType', 'line_item_line_item_type'],
  usageStart: ['lineItem/UsageStartDate', 'line_item_usage_start_date'],
  usageEnd: ['lineItem/UsageEndDate', 'line_item_usage_end_date'],
  productCode: ['lineItem/ProductCode', 'line_item_product_code'],
  usageType: ['lineItem/UsageType', 'line_item_usage_type'],
  operation: ['lineItem/Operation', 'line_item_operation'],
  resourceId: ['lineItem/ResourceId', 'line_item_resource_id'],
  accountId: ['lineItem/UsageAccountId', 'line_item_usage_account_id'],
  usageAmount: ['lineItem/UsageAmount', 'line_item_usage_amount'],
  regionCode: ['product/regionCode', 'product_region_code'],
  region: ['product/region', 'product_region'],
  instanceType: ['product/instanceType', 'product_instance_type'],
  operatingSystem: ['product/operatingSystem', 'product_operating_system'],
  tenancy: ['product/tenancy', 'product_tenancy'],
  databaseEngine: ['product/databaseEngine', 'product_database_engine'],
  deploymentOption: ['product/deploymentOption', 'product_deployment_option'],
  publicOnDemandRate: ['pricing/publicOnDemandRate', 'pricing_public_on_demand_rate'],
} as const;

/** FOCUS 1.0 and 1.2 (any provider), with the AWS and Azure extension columns (`x_`) when present. */
export const focusColumns = {
  chargeCategory: 'ChargeCategory',
  chargeClass: 'ChargeClass',
  pricingCategory: 'PricingCategory',
  chargePeriodStart: 'ChargePeriodStart',
  chargePeriodEnd: 'ChargePeriodEnd',
  providerName: 'ProviderName',
  serviceName: 'ServiceName',
  chargeDescription: 'ChargeDescription',
  resourceId: 'ResourceId',
  subAccountId: 'SubAccountId',
  regionId: 'RegionId',
  consumedQuantity: 'ConsumedQuantity',
  consumedUnit: 'ConsumedUnit',
  listUnitPrice: 'ListUnitPrice',
  commitmentDiscountStatus: 'CommitmentDiscountStatus',
  capacityReservationStatus: 'CapacityReservationStatus',
  awsServiceCode: 'x_ServiceCode',
  awsUsageType: 'x_UsageType',
  awsOperation: 'x_Operation',
  azureMeterCategory: 'x_SkuMeterCategory',
  azureMeterSubcategory: 'x_SkuMeterSubcategory',
  azureMeterName: 'x_SkuMeterName',
  azureSkuDetails: 'x_SkuDetails',
} as const;

/**
 * Azure's actual-cost export (Cost Management's `ActualCost` dataset): one line per resource,
 * meter and day. Enterprise Agreement files capitalize the names (`Date`), Microsoft Customer
 * Agreement files mostly do not (`date`): each column is read by either spelling.
 */
export const azureActualCostColumns = {
  date: ['Date', 'date'],
  chargeType: ['ChargeType', 'chargeType'],
  pricingModel: ['PricingModel', 'pricingModel'],
  meterCategory: ['MeterCategory', 'meterCategory'],
  meterSubcategory: ['MeterSubCategory', 'meterSubCategory'],
  meterName: ['MeterName', 'meterName'],
  resourceId: ['ResourceId', 'resourceId'],
  subscriptionId: ['SubscriptionId', 'subscriptionId'],
  location: ['ResourceLocation', 'resourceLocation'],
  quantity: ['Quantity', 'quantity'],
  unit: ['UnitOfMeasure', 'unitOfMeasure'],
  additionalInfo: ['AdditionalInfo', 'additionalInfo'],
  payGPrice: ['PayGPrice', 'payGPrice'],
} as const;

const columnsByFormat: Readonly<Record<ExportFormat, Readonly<Record<string, string | readonly string[]>>>> =
  {
    cur2: cur2Columns,
    cur: legacyCurColumns,
    focus: focusColumns,
    'azure-actual-cost': azureActualCostColumns,
  };

/** The columns a format's rows are read from (some may be absent from a file). */
export function columnsOf(format: ExportFormat): readonly string[] {
  return Object.values(columnsByFormat[format]).flat();
}

/** A column, or the spellings of one (any of them). */
type IdentifyingColumn = string | readonly string[];

/** The columns without which a file is not of the format at all. */
const identifyingColumns: Readonly<Record<ImportFormat, readonly IdentifyingColumn[]>> = {
  'usage-csv': ['timestamp', 'resource_id', 'usage_type', 'units'],
  // The `product` map is what tells CUR 2.0 from the legacy CUR's Athena layout, whose line item
  // columns are spelled alike.
  cur2: [cur2Columns.lineItemType, cur2Columns.usageStart, cur2Columns.usageAmount, cur2Columns.product],
  cur: [legacyCurColumns.lineItemType, legacyCurColumns.usageStart, legacyCurColumns.usageAmount],
  focus: [focusColumns.chargeCategory, focusColumns.chargePeriodStart, focusColumns.consumedQuantity],
  'azure-actual-cost': [
    azureActualCostColumns.chargeType,
    azureActualCostColumns.date,
    azureActualCostColumns.meterCategory,
    azureActualCostColumns.quantity,
  ],
};

const presentIn = (present: ReadonlySet<string>) => (column: IdentifyingColumn) =>
  typeof column === 'string' ? present.has(column) : column.some((name) => present.has(name));

/** The format a file's header names, or undefined when it is none of them. */
export function detectImportFormat(columns: readonly string[]): ImportFormat | undefined {
  const present = presentIn(new Set(columns));
  return importFormats.find((format) => identifyingColumns[format].every(present));
}

/** The identifying columns of the format the header lacks (for an error naming them). */
export function missingColumns(format: ImportFormat, columns: readonly string[]): string[] {
  const present = presentIn(new Set(columns));
  return identifyingColumns[format]
    .filter((column) => !present(column))
    .map((column) => (typeof column === 'string' ? column : column.join(' or ')));
}

/** The columns a row's region is read from, as an error names them. */
export const regionColumns: Readonly<Record<ExportFormat, string>> = {
  cur2: cur2Columns.region,
  cur: [...legacyCurColumns.regionCode, ...legacyCurColumns.region].join(', '),
  focus: focusColumns.regionId,
  'azure-actual-cost': azureActualCostColumns.location.join(' or '),
};
