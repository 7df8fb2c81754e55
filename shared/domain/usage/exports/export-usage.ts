import type { Catalog } from '../../catalog/catalog';
import { cloudProviders } from '../../cloud-providers';
import { deploymentFactor } from '../../engine/groups/groups';
import type { Provider } from '../../engine/shapes/model';
import { ValidationError } from '../../errors';
import type { ImportedSeries, PriceSource, ProviderUsage, UsageResource } from '../imported-usage';
import { hoursInMonth, monthOfHour, monthStartHour } from '../usage-months';
import { latestPresentHour } from '../usage-state';
import { usageUnits } from '../usage-units';
import type { SkipReason } from './aws-instance-hours';
import { columnsOf, type ExportFormat, regionColumns } from './export-formats';
import { type ExportBatch, exportRowMapper, type InstanceHourRow } from './export-rows';
import { noSkippedRows, rowValues, type SkipExample } from './skipped-rows';

/** What an export holds for the plans, and what it skipped. */
export interface ExportedUsage {
  readonly format: ExportFormat;
  /** Every row of the file (without the header). */
  readonly rows: number;
  /** Rows that became usage; `usedRows` plus every skipped count is `rows`. */
  readonly usedRows: number;
  readonly skipped: Readonly<Record<SkipReason, number>>;
  /** The first row of each reason that skipped any (skipped-rows.ts). */
  readonly skippedExamples: Readonly<Partial<Record<SkipReason, SkipExample>>>;
  /** In the order aws, azure, gcp; providers without usage are absent. */
  readonly providers: readonly ProviderUsage[];
}

/** A line spanning more hours than a month has is not an hourly line: it is skipped as invalid. */
const MAX_LINE_HOURS = 744;

/** One resource's hours as collected, before the series are named (staged-usage.ts merges them). */
export interface SeriesInFile {
  readonly resourceId: string;
  readonly row: Pick<InstanceHourRow, 'provider' | 'accountId' | 'region' | 'description'>;
  readonly ondemandPrice: number;
  /** Absent for hours staged by an earlier release, which did not record it. */
  readonly priceSource?: PriceSource;
  readonly months: Map<string, Float64Array>;
}

/** One provider's collected hours, by series key (resource id and description). */
export interface ProviderInFile {
  readonly series: Map<string, SeriesInFile>;
  firstHour: number;
  lastHour: number;
  rows: number;
}

/** A series' key: its resource id and description (an instance resized is two series). */
export function seriesKey(resourceId: string, description: InstanceHourRow['description']): string {
  const { instanceType, operatingSystem, tenancy, deploymentOption } = description;
  return `${resourceId}\u0000${instanceType}\u0000${operatingSystem}\u0000${tenancy}\u0000${deploymentOption ?? ''}`;
}

/** A batch's rows mapped, and the places whose catalog prices they need (`provider|region`). */
export interface MappedBatch {
  readonly batch: ExportBatch;
  readonly rows: readonly (InstanceHourRow | SkipReason)[];
  readonly places: ReadonlySet<string>;
}

/**
 * Collects an export's instance-hours into hourly usage per resource (docs/import.md, Billing
 * exports). Lines of the same resource and hour add up (an hour split between a reservation and
 * on demand is two lines). A resource is its resource id with its description (instance type,
 * platform, tenancy, deployment): an instance resized within the file is two series, the later
 * ones named `<resource id> (<instance type> <platform> <tenancy>)`. Its on-demand price is the
 * first public on-demand rate its lines give, else the catalog's (twice the Single-AZ price for a
 * Multi-AZ database, as AWS prices them); without either, its lines are skipped as `no_price`.
 */
export function createExportUsageCollector(
  format: ExportFormat,
  catalog: Pick<Catalog, 'ondemandPrice'>,
  importedAt: Date,
) {
  const latestHour = latestPresentHour(importedAt);
  const mapperOf = exportRowMapper(format);
  const providers = new Map<Provider, ProviderInFile>();
  const { counts: skipped, examples } = noSkippedRows();
  const columns = columnsOf(format);
  let rows = 0;
  let usedRows = 0;
  let lastMonth: { month: string; start: number; hours: number } | undefined;

  function monthOf(hour: number) {
    if (lastMonth && hour >= lastMonth.start && hour < lastMonth.start + lastMonth.hours) return lastMonth;
    const month = monthOfHour(hour);
    lastMonth = { month, start: monthStartHour(month), hours: hoursInMonth(month) };
    return lastMonth;
  }

  function priceOf(row: InstanceHourRow): { ondemandPrice: number; priceSource: PriceSource } | undefined {
    if (row.publicRate > 0) return { ondemandPrice: row.publicRate, priceSource: 'bill' };
    const { service, instanceType, operatingSystem, tenancy, deploymentOption } = row.description;
    const price = catalog.ondemandPrice({
      provider: row.provider,
      region: row.region,
      instanceType,
      operatingSystem,
      tenancy,
    });
    if (price === undefined) return undefined;
    return { ondemandPrice: price * deploymentFactor(service, deploymentOption), priceSource: 'catalog' };
  }

  function add(row: InstanceHourRow): SkipReason | undefined {
    if (row.hours > MAX_LINE_HOURS) return 'invalid';
    if (row.firstHour + row.hours - 1 > latestHour) return 'future_hour';
    // Only a row that is stored widens the provider's covered hours, which an import replaces:
    // the provider is entered once its first row is priced (a skipped row replaces nothing).
    const key = seriesKey(row.resourceId, row.description);
    let inFile = providers.get(row.provider);
    let series = inFile?.series.get(key);
    if (!series) {
      const priced = priceOf(row);
      if (priced === undefined) return 'no_price';
      series = { resourceId: row.resourceId, row, ...priced, months: new Map() };
      if (!inFile) {
        inFile = { series: new Map(), firstHour: row.firstHour, lastHour: row.firstHour, rows: 0 };
        providers.set(row.provider, inFile);
      }
      inFile.series.set(key, series);
    }
    if (!inFile) throw new Error('a series is only ever found in its provider');
    const perHour = row.units / row.hours;
    for (let hour = row.firstHour; hour < row.firstHour + row.hours; hour++) {
      const month = monthOf(hour);
      let values = series.months.get(month.month);
      if (!values) {
        values = new Float64Array(month.hours);
        series.months.set(month.month, values);
      }
      values[hour - month.start] = (values[hour - month.start] as number) + perHour;
    }
    inFile.firstHour = Math.min(inFile.firstHour, row.firstHour);
    inFile.lastHour = Math.max(inFile.lastHour, row.firstHour + row.hours - 1);
    inFile.rows += 1;
    return undefined;
  }

  return {
    get rows() {
      return rows;
    },
    get usedRows() {
      return usedRows;
    },
    /** The rows skipped so far, by reason, with the first example of each. */
    skippedRows() {
      return { counts: { ...skipped }, examples: { ...examples } };
    },
    /** Maps and collects every row of the batch. */
    addBatch(batch: ExportBatch): void {
      this.addMapped(this.mapBatch(batch));
    },
    /**
     * Maps every row of the batch, refusing an instance-hour without a region, and answers the
     * rows with the places (`provider|region`) of those that carry no public rate: their price is
     * the catalog's, so the catalog must price those places before `addMapped` (the import loads
     * only those regions, docs/catalog.md, Stored catalog).
     */
    mapBatch(batch: ExportBatch): MappedBatch {
      const map = mapperOf(batch);
      const mapped: (InstanceHourRow | SkipReason)[] = [];
      const places = new Set<string>();
      for (let index = 0; index < batch.length; index++) {
        const row = map(index);
        if (typeof row !== 'string') {
          if (row.region === '') refuseWithoutRegion(format, rows + index + 1, row);
          if (!(row.publicRate > 0)) places.add(`${row.provider}|${row.region}`);
        }
        mapped.push(row);
      }
      return { batch, rows: mapped, places };
    },
    /** Collects the rows `mapBatch` mapped, each priced by its public rate or the catalog. */
    addMapped({ batch, rows: mapped }: MappedBatch): void {
      for (const [index, row] of mapped.entries()) {
        const reason = typeof row === 'string' ? row : add(row);
        if (reason === undefined) usedRows += 1;
        else {
          skipped[reason] += 1;
          examples[reason] ??= { row: rows + index + 1, values: rowValues(batch, columns, index) };
        }
      }
      rows += batch.length;
    },
    /** The hours collected so far, per provider, before the series are named (a sync's staged part). */
    collected(): ReadonlyMap<Provider, ProviderInFile> {
      return providers;
    },
    finish(): ExportedUsage {
      return {
        format,
        rows,
        usedRows,
        skipped,
        skippedExamples: examples,
        providers: providerUsagesOf(providers),
      };
    },
  };
}

/**
 * An instance-hour without a region is refused, and the file with it: a region is what its prices
 * and the commitments that may cover it are chosen by, so usage stored without one would mix the
 * instances of every region and plan nothing (docs/import.md, Billing exports). A real export
 * names the region of every instance-hour: an empty one means the file is not what it seems.
 */
function refuseWithoutRegion(format: ExportFormat, row: number, mapped: InstanceHourRow): never {
  throw new ValidationError(
    `row ${row} (counted from 1 after the header): the ${mapped.description.service} instance-hour of ${mapped.resourceId || 'a resource without id'} has no region (column ${regionColumns[format]} is empty); nothing was stored`,
  );
}

/** Each provider's collected hours as usage, in the order aws, azure, gcp. */
export function providerUsagesOf(providers: ReadonlyMap<Provider, ProviderInFile>): ProviderUsage[] {
  const parsed: ProviderUsage[] = [];
  for (const provider of cloudProviders) {
    const inFile = providers.get(provider);
    if (!inFile) continue;
    parsed.push({
      provider,
      covered: { firstHour: inFile.firstHour, lastHour: inFile.lastHour },
      rows: inFile.rows,
      series: seriesOf(inFile),
    });
  }
  return parsed;
}

function seriesOf(inFile: ProviderInFile): ImportedSeries[] {
  const descriptions = new Map<string, number>();
  for (const series of inFile.series.values()) {
    descriptions.set(series.resourceId, (descriptions.get(series.resourceId) ?? 0) + 1);
  }
  const result: ImportedSeries[] = [];
  for (const { resourceId, row, ondemandPrice, priceSource, months } of inFile.series.values()) {
    const { service, instanceType, operatingSystem, tenancy, deploymentOption } = row.description;
    const named =
      (descriptions.get(resourceId) ?? 0) > 1
        ? `${resourceId} (${instanceType} ${operatingSystem} ${tenancy}${deploymentOption === 'Multi-AZ' ? ' Multi-AZ' : ''})`
        : resourceId;
    const resource: UsageResource = {
      resourceId: named.replaceAll('#', '-'),
      provider: row.provider,
      accountId: row.accountId,
      region: row.region,
      service,
      instanceType,
      operatingSystem,
      tenancy,
      // Absent means Single-AZ (model.ts): a Single-AZ database reads like the project's own file.
      ...(deploymentOption === 'Multi-AZ' ? { deploymentOption } : {}),
      usageType: 'running',
      usageUnit: usageUnits.running,
      ondemandPrice,
      ...(priceSource ? { priceSource } : {}),
    };
    result.push({ resource, months });
  }
  return result;
}
