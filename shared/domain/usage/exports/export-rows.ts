import {
  type AwsInstanceDescription,
  type AwsProductAttributes,
  awsInstanceHour,
  ec2HourOfDescription,
  rdsHourOfDescription,
  type SkipReason,
} from './aws-instance-hours';
import { azureSubscriptionId, azureVmHour } from './azure-instance-hours';
import {
  azureActualCostColumns,
  cur2Columns,
  type ExportFormat,
  focusColumns,
  legacyCurColumns,
} from './export-formats';
import {
  batchColumns,
  batchColumnsSpelled,
  type Column,
  type InstanceHourRow,
  instanceRow,
  type MappedRow,
  productAttribute,
  safeJson,
} from './export-row-parts';
import { exportHour, exportHourReader, exportText } from './export-values';

/**
 * Rows of an export, read in batches by a file adapter (Parquet row groups, runs of CSV
 * records): the values of the columns asked for, by name, index = row within the batch.
 */
export interface ExportBatch {
  readonly length: number;
  /** The column's values; undefined when the file has no such column. */
  column(name: string): ArrayLike<unknown> | undefined;
}

/** An export as a stream of batches, with the format its columns were read for. */
export interface ExportRows {
  readonly format: ExportFormat;
  readonly batches: AsyncIterable<ExportBatch>;
}

export type { InstanceHourRow, MappedRow };

/** Reads row `index` of the batch it was made for. */
export type RowMapper = (index: number) => MappedRow;

const usageLineItemTypes = new Set(['Usage', 'DiscountedUsage', 'SavingsPlanCoveredUsage']);

/** The line item columns CUR 2.0 and the legacy CUR both have, each under its own name. */
type CurLineColumns = Record<
  | 'lineItemType'
  | 'usageStart'
  | 'usageEnd'
  | 'productCode'
  | 'usageType'
  | 'operation'
  | 'resourceId'
  | 'accountId'
  | 'usageAmount'
  | 'publicOnDemandRate',
  Column
>;

/**
 * The two CUR formats read a row alike; they differ in where the product's attributes and the
 * region stand (CUR 2.0: a product map; the legacy CUR: columns of their own).
 */
function curRowMapper(
  columns: CurLineColumns,
  attributesAt: (index: number) => AwsProductAttributes,
  regionAt: (index: number) => string,
): RowMapper {
  const { lineItemType, usageStart, usageEnd, productCode, usageType, operation, resourceId, accountId } =
    columns;
  const { usageAmount, publicOnDemandRate } = columns;
  const hourOf = exportHourReader();
  return (i) => {
    if (!usageLineItemTypes.has(exportText(lineItemType?.[i]))) return 'not_usage';
    const description = awsInstanceHour(
      exportText(productCode?.[i]),
      exportText(usageType?.[i]),
      exportText(operation?.[i]),
      attributesAt(i),
    );
    if (typeof description === 'string') return description;
    return instanceRow(
      hourOf,
      'aws',
      description,
      exportText(resourceId?.[i]),
      exportText(accountId?.[i]),
      regionAt(i),
      usageStart?.[i],
      usageEnd?.[i],
      usageAmount?.[i],
      publicOnDemandRate?.[i],
    );
  };
}

function cur2Mapper(batch: ExportBatch): RowMapper {
  const columns = batchColumns(batch, cur2Columns);
  const { product, instanceType, region, capacityReservationStatus } = columns;
  const mapper = cur2RowMapper(columns, product, instanceType, region);
  // The unused hours of a capacity reservation (table option INCLUDE CAPACITY RESERVATION DATA).
  return (i) => (exportText(capacityReservationStatus?.[i]) === 'Unused' ? 'unused_commitment' : mapper(i));
}

function cur2RowMapper(
  columns: CurLineColumns,
  product: Column,
  instanceType: Column,
  region: Column,
): RowMapper {
  return curRowMapper(
    columns,
    (i) => {
      let map = product?.[i];
      if (typeof map === 'string') map = map.startsWith('{') ? safeJson(map) : undefined;
      return {
        instanceType: exportText(instanceType?.[i]),
        operatingSystem: productAttribute(map, 'operating_system'),
        tenancy: productAttribute(map, 'tenancy'),
        databaseEngine: productAttribute(map, 'database_engine'),
        deploymentOption: productAttribute(map, 'deployment_option'),
      };
    },
    (i) => exportText(region?.[i]),
  );
}

function legacyCurMapper(batch: ExportBatch): RowMapper {
  const columns = batchColumnsSpelled(batch, legacyCurColumns);
  const { regionCode, region, instanceType, operatingSystem, tenancy, databaseEngine, deploymentOption } =
    columns;
  return curRowMapper(
    columns,
    (i) => ({
      instanceType: exportText(instanceType?.[i]),
      operatingSystem: exportText(operatingSystem?.[i]),
      tenancy: exportText(tenancy?.[i]),
      databaseEngine: exportText(databaseEngine?.[i]),
      deploymentOption: exportText(deploymentOption?.[i]),
    }),
    (i) => exportText(regionCode?.[i]) || exportText(region?.[i]),
  );
}

/** FOCUS `ServiceName` of the AWS services whose instances plans cover, as `x_ServiceCode` names them. */
const awsServiceCodes: Readonly<Record<string, string>> = {
  'Amazon Elastic Compute Cloud': 'AmazonEC2',
  'Amazon Relational Database Service': 'AmazonRDS',
};

const noNullText = (value: unknown): string => {
  const text = exportText(value);
  // Some FOCUS files write a null as the text NULL.
  return text === 'NULL' ? '' : text;
};

function focusMapper(batch: ExportBatch): RowMapper {
  const columns = batchColumns(batch, focusColumns);
  const hourOf = exportHourReader();
  const {
    chargeCategory: category,
    chargeClass,
    pricingCategory: pricing,
    providerName,
    serviceName,
  } = columns;
  const { chargePeriodStart: start, chargePeriodEnd: end, chargeDescription, consumedUnit: unit } = columns;
  const { resourceId: resource, subAccountId: account, regionId: region } = columns;
  const { consumedQuantity: quantity, listUnitPrice: listPrice } = columns;
  const { awsServiceCode: serviceCode, awsUsageType: usageType, awsOperation: operation } = columns;
  const {
    azureMeterCategory: meterCategory,
    azureMeterSubcategory: meterSubcategory,
    azureMeterName: meterName,
    azureSkuDetails: skuDetails,
  } = columns;
  const azureRow = (i: number): MappedRow => {
    const description = azureVmHour({
      meterCategory: noNullText(meterCategory?.[i]) || noNullText(serviceName?.[i]),
      meterSubcategory: noNullText(meterSubcategory?.[i]),
      meterName: noNullText(meterName?.[i]),
      skuDetails: skuDetails?.[i],
      unit: noNullText(unit?.[i]),
    });
    if (typeof description === 'string') return description;
    return instanceRow(
      hourOf,
      'azure',
      description,
      noNullText(resource?.[i]),
      azureSubscriptionId(noNullText(account?.[i])),
      noNullText(region?.[i]).toLowerCase(),
      start?.[i],
      end?.[i],
      quantity?.[i],
      listPrice?.[i],
    );
  };
  const { commitmentDiscountStatus: commitmentStatus, capacityReservationStatus: capacityStatus } = columns;
  return (i) => {
    if (noNullText(category?.[i]) !== 'Usage') return 'not_usage';
    // A commitment's hours no resource used (FOCUS 1.0+): its cost, not usage to plan for.
    if (noNullText(commitmentStatus?.[i]) === 'Unused') return 'unused_commitment';
    // A capacity reservation's hours no instance ran in (FOCUS 1.1+): reserved capacity, billed
    // whether used or not; the instances that use it bill their own hours.
    if (noNullText(capacityStatus?.[i]) === 'Unused') return 'unused_commitment';
    if (noNullText(chargeClass?.[i]) === 'Correction') return 'correction';
    if (noNullText(pricing?.[i]) === 'Dynamic') return 'spot';
    const providerText = noNullText(providerName?.[i]);
    if (providerText === 'Microsoft' || providerText === 'Microsoft Azure') return azureRow(i);
    if (providerText !== 'AWS' && providerText !== 'Amazon Web Services') return 'not_instance_hours';
    const code = noNullText(serviceCode?.[i]) || awsServiceCodes[noNullText(serviceName?.[i])] || '';
    const usage = noNullText(usageType?.[i]);
    let description: AwsInstanceDescription | SkipReason;
    if (usage !== '') {
      description = awsInstanceHour(code, usage, noNullText(operation?.[i]), {
        instanceType: '',
        operatingSystem: '',
        tenancy: '',
        databaseEngine: '',
        deploymentOption: '',
      });
    } else {
      const unitText = noNullText(unit?.[i]);
      const hourly = unitText === 'Hours' || unitText === 'Hrs';
      const text = noNullText(chargeDescription?.[i]);
      const described =
        hourly &&
        ((code === 'AmazonEC2' && ec2HourOfDescription(text)) ||
          (code === 'AmazonRDS' && rdsHourOfDescription(text)));
      description = described || 'not_instance_hours';
    }
    if (typeof description === 'string') return description;
    return instanceRow(
      hourOf,
      'aws',
      description,
      noNullText(resource?.[i]),
      noNullText(account?.[i]),
      noNullText(region?.[i]),
      start?.[i],
      end?.[i],
      quantity?.[i],
      listPrice?.[i],
    );
  };
}

/** `05/01/2026` (MM/DD/YYYY, as Azure's CSV files write it) or `2026-05-01[...]`, a Date, -> that day at 00:00 UTC. */
function azureDay(value: unknown): Date | undefined {
  if (value instanceof Date) return new Date(Math.floor(value.getTime() / 86_400_000) * 86_400_000);
  const text = exportText(value);
  const us = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(text);
  const iso = /^(\d{4})-(\d{2})-(\d{2})/.exec(text);
  const [year, month, day] = us ? [us[3], us[1], us[2]] : iso ? [iso[1], iso[2], iso[3]] : [];
  if (!year) return undefined;
  const ms = Date.UTC(Number(year), Number(month) - 1, Number(day));
  return Number.isNaN(ms) ? undefined : new Date(ms);
}

const DAY_MS = 86_400_000;

/** Charge types only Azure's amortized-cost dataset has. */
const unusedCommitmentCharges = new Set(['UnusedReservation', 'UnusedSavingsPlan']);

/**
 * Azure's actual-cost export, and its amortized-cost one (the same columns and usage lines; the
 * amortized one spreads purchases over their terms and adds the unused hours of commitments): a
 * VM's hours of a day, spread evenly over the day.
 */
function azureActualCostMapper(batch: ExportBatch): RowMapper {
  const c = azureActualCostColumns;
  const col = (names: readonly string[]): Column =>
    names.map((name) => batch.column(name)).find((column) => column !== undefined);
  const [date, chargeType, pricingModel, meterCategory, meterSubcategory, meterName, resource] = [
    col(c.date),
    col(c.chargeType),
    col(c.pricingModel),
    col(c.meterCategory),
    col(c.meterSubcategory),
    col(c.meterName),
    col(c.resourceId),
  ];
  const [subscription, location, quantity, unit, additionalInfo, payGPrice] = [
    col(c.subscriptionId),
    col(c.location),
    col(c.quantity),
    col(c.unit),
    col(c.additionalInfo),
    col(c.payGPrice),
  ];
  return (i) => {
    const charge = exportText(chargeType?.[i]);
    // The amortized-cost dataset's lines of reserved or savings plan hours nothing used.
    if (unusedCommitmentCharges.has(charge)) return 'unused_commitment';
    if (charge !== 'Usage') return 'not_usage';
    if (exportText(pricingModel?.[i]) === 'Spot') return 'spot';
    const description = azureVmHour({
      meterCategory: exportText(meterCategory?.[i]),
      meterSubcategory: exportText(meterSubcategory?.[i]),
      meterName: exportText(meterName?.[i]),
      skuDetails: additionalInfo?.[i],
      unit: exportText(unit?.[i]),
    });
    if (typeof description === 'string') return description;
    const day = azureDay(date?.[i]);
    if (!day) return 'invalid';
    return instanceRow(
      // Its days are Dates: nothing to parse, nothing to remember.
      exportHour,
      'azure',
      description,
      exportText(resource?.[i]),
      exportText(subscription?.[i]),
      // `EastUS`, `East US` and `eastus` name one region.
      exportText(location?.[i]).toLowerCase().replace(/\s+/g, ''),
      day,
      new Date(day.getTime() + DAY_MS),
      quantity?.[i],
      payGPrice?.[i],
    );
  };
}

/** The mapper of a batch of the format: each row to an instance-hour line, or the reason it is skipped. */
export function exportRowMapper(format: ExportFormat): (batch: ExportBatch) => RowMapper {
  if (format === 'cur2') return cur2Mapper;
  if (format === 'cur') return legacyCurMapper;
  if (format === 'azure-actual-cost') return azureActualCostMapper;
  return focusMapper;
}
