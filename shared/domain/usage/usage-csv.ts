import type { Catalog } from '../catalog/catalog';
import { cloudProviders } from '../cloud-providers';
import { type CsvFileParser, CsvReader, type CsvRecord, type CsvRow } from '../csv/csv-reader';
import { parseDecimal } from '../csv/csv-values';
import { deploymentFactor } from '../engine/groups/groups';
import type { DeploymentOption, Provider } from '../engine/shapes/model';
import { deploymentOptions, usageTypes } from '../engine/shapes/model';
import { isoTimestamp, parseIsoHour } from '../iso-timestamps';
import type { ImportedSeries, ProviderUsage, UsageResource } from './imported-usage';
import { isoHour } from './local-time';
import { hoursInMonth, monthOfHour, monthStartHour } from './usage-months';
import { CLOCK_SKEW_HOURS, latestPresentHour } from './usage-state';
import { isUsageType, usageUnits } from './usage-units';

/** The columns of a usage file (docs/import.md): one row per resource and hour. */
export const usageCsvColumns = [
  'timestamp',
  'provider',
  'account_id',
  'region',
  'service',
  'resource_id',
  'instance_type',
  'operating_system',
  'tenancy',
  'usage_type',
  'units',
  'ondemand_price',
] as const;

/** Columns a header may leave out (files written before them import unchanged). */
export const optionalUsageCsvColumns = ['deployment_option'] as const;

export type UsageCsvColumn = (typeof usageCsvColumns)[number] | (typeof optionalUsageCsvColumns)[number];

/** What a valid usage file holds: per provider, the covered hours and every resource's series. */
export interface ParsedUsage {
  readonly rows: number;
  /** In the order aws, azure, gcp; providers without rows are absent. */
  readonly providers: readonly ProviderUsage[];
}

/** A usage file parser, and what it prices from the catalog. */
export interface UsageCsvParser extends CsvFileParser<ParsedUsage> {
  /**
   * The places (`provider|region`) whose on-demand prices the rows of `records`, the next ones
   * to push, take from the catalog (those with an empty ondemand_price): what must be loaded
   * before they are pushed (docs/catalog.md, Stored catalog).
   */
  placesOf(records: readonly CsvRecord[]): Set<string>;
}

/** A row's deployment (validated by readRow): empty is Single-AZ. */
const deploymentOf = (row: CsvRow<UsageCsvColumn>): DeploymentOption =>
  row.value('deployment_option') === 'Multi-AZ' ? 'Multi-AZ' : 'Single-AZ';

/** Resource ids end a DynamoDB sort key, which holds at most 1024 bytes. */
const MAX_RESOURCE_ID_BYTES = 1000;

/** Whether the UTF-8 encoding of `text` exceeds `bytes` (a UTF-16 code unit takes at most 3 bytes). */
function longerThanBytes(text: string, bytes: number): boolean {
  return text.length * 3 > bytes && new TextEncoder().encode(text).length > bytes;
}

/** The resource description columns that must be the same on every row of a resource. */
const resourceColumns = [
  ['account_id', 'accountId'],
  ['region', 'region'],
  ['service', 'service'],
  ['instance_type', 'instanceType'],
  ['operating_system', 'operatingSystem'],
  ['tenancy', 'tenancy'],
  ['usage_type', 'usageType'],
] as const satisfies readonly (readonly [UsageCsvColumn, keyof UsageResource])[];

const requiredColumns = [
  'timestamp',
  'provider',
  'account_id',
  'region',
  'service',
  'resource_id',
  'usage_type',
  'units',
] as const satisfies readonly UsageCsvColumn[];

interface ResourceInFile {
  readonly resource: UsageResource;
  readonly firstLine: number;
  /** Per month, units per hour; NaN where no row was read yet (so a second row is caught). */
  readonly months: Map<string, Float64Array>;
}

interface ProviderInFile {
  readonly resources: Map<string, ResourceInFile>;
  firstHour: number;
  lastHour: number;
  rows: number;
}

/** A row's hour, with its month; rows of one hour usually follow each other, so the last one is kept. */
interface HourOfRow {
  readonly text: string;
  readonly hour: number;
  readonly month: string;
  readonly indexInMonth: number;
}

/**
 * Parses and validates a usage file streamed line by line (docs/import.md). Every problem is
 * reported with its line number; nothing is answered unless the whole file is valid. An empty
 * `ondemand_price` takes the catalog's on-demand price, which exists for instance-hours
 * (`usage_type` `running`) of the instance types the catalog prices. A row of an hour after
 * `importedAt` plus the clock skew allowed is refused: one typo in a year would otherwise move
 * the provider's lookback (and its covered hours) years ahead.
 */
export function createUsageCsvParser(
  catalog: Pick<Catalog, 'ondemandPrice'>,
  importedAt: Date,
): UsageCsvParser {
  const latestHour = latestPresentHour(importedAt);
  const providers = new Map<Provider, ProviderInFile>();
  let lastHour: HourOfRow | undefined;

  function hourOf(text: string): HourOfRow | undefined {
    if (lastHour?.text === text) return lastHour;
    const hour = parseIsoHour(text);
    if (hour === undefined) return undefined;
    const month = monthOfHour(hour);
    lastHour = { text, hour, month, indexInMonth: hour - monthStartHour(month) };
    return lastHour;
  }

  function catalogPrice(row: CsvRow<UsageCsvColumn>, provider: Provider): number | undefined {
    const usageType = row.value('usage_type');
    if (usageType !== 'running') {
      row.error(
        `ondemand_price is required for usage_type ${usageType}: the catalog prices instance-hours (usage_type running) only`,
      );
      return undefined;
    }
    const instance = {
      provider,
      region: row.value('region'),
      instanceType: row.value('instance_type'),
      operatingSystem: row.value('operating_system'),
      tenancy: row.value('tenancy'),
    };
    const singleAz = catalog.ondemandPrice(instance);
    // The catalog prices a database Single-AZ; a Multi-AZ one runs a standby too, as the export
    // path prices it and as its units count (docs/plan-engine.md, Coverage groups).
    const price =
      singleAz === undefined
        ? undefined
        : singleAz * deploymentFactor(row.value('service'), deploymentOf(row));
    if (price === undefined) {
      const what = [
        instance.provider,
        instance.region,
        instance.instanceType,
        instance.operatingSystem,
        instance.tenancy,
      ]
        .map((part) => part || "''")
        .join(' ');
      row.error(`ondemand_price is empty and the catalog has no on-demand price for ${what}`);
    }
    return price;
  }

  /** The row's values that need no other row; undefined (with the errors reported) when one is bad. */
  function readRow(row: CsvRow<UsageCsvColumn>) {
    let valid = true;
    const fail = (message: string) => {
      row.error(message);
      valid = false;
    };
    for (const column of requiredColumns) {
      if (row.value(column) === '') fail(`${column} is required`);
    }
    if (!valid) return undefined;

    const timestamp = row.value('timestamp');
    const hour = hourOf(timestamp);
    if (!hour)
      fail(`timestamp must be an ISO 8601 UTC hour start, e.g. 2026-06-01T13:00:00Z; got ${timestamp}`);
    else if (hour.hour > latestHour) {
      fail(
        `timestamp ${timestamp} is in the future: rows may be at most ${CLOCK_SKEW_HOURS} hour after the import's time, ${isoTimestamp(importedAt.getTime())}`,
      );
    }
    const provider = row.value('provider');
    if (!(cloudProviders as readonly string[]).includes(provider)) {
      fail(`provider must be one of ${cloudProviders.join(', ')}; got ${provider}`);
    }
    const resourceId = row.value('resource_id');
    if (resourceId.includes('#')) fail('resource_id must not contain #');
    if (longerThanBytes(resourceId, MAX_RESOURCE_ID_BYTES)) {
      fail(`resource_id must be at most ${MAX_RESOURCE_ID_BYTES} bytes long`);
    }
    if (!isUsageType(row.value('usage_type'))) {
      fail(`usage_type must be one of ${usageTypes.join(', ')}; got ${row.value('usage_type')}`);
    }
    const units = parseDecimal(row.value('units'));
    if (units === undefined || units < 0) fail(`units must be a number >= 0; got ${row.value('units')}`);
    const priceText = row.value('ondemand_price');
    const price = priceText === '' ? undefined : parseDecimal(priceText);
    if (priceText !== '' && (price === undefined || price <= 0)) {
      fail(`ondemand_price must be empty or a number > 0; got ${priceText}`);
    }
    const deploymentOption = row.value('deployment_option');
    if (deploymentOption !== '' && !(deploymentOptions as readonly string[]).includes(deploymentOption)) {
      fail(
        `deployment_option must be empty or one of ${deploymentOptions.join(', ')}; got ${deploymentOption}`,
      );
    } else if (deploymentOption === 'Multi-AZ' && row.value('service') !== 'AmazonRDS') {
      fail(
        `deployment_option Multi-AZ is for databases (service AmazonRDS); got service ${row.value('service')}`,
      );
    }
    if (!valid || !hour) return undefined;
    return { hour, provider: provider as Provider, resourceId, units: units as number, price };
  }

  function newResource(row: CsvRow<UsageCsvColumn>, provider: Provider, price: number | undefined) {
    const ondemandPrice = price ?? catalogPrice(row, provider);
    if (ondemandPrice === undefined) return undefined;
    const usageType = row.value('usage_type') as UsageResource['usageType'];
    const resource: UsageResource = {
      resourceId: row.value('resource_id'),
      provider,
      accountId: row.value('account_id'),
      region: row.value('region'),
      service: row.value('service'),
      instanceType: row.value('instance_type'),
      operatingSystem: row.value('operating_system'),
      tenancy: row.value('tenancy'),
      usageType,
      usageUnit: usageUnits[usageType],
      ondemandPrice,
      // Single-AZ, the default, is left out: resources of files without the column are stored as before.
      ...(deploymentOf(row) === 'Multi-AZ' ? { deploymentOption: 'Multi-AZ' as const } : {}),
    };
    return { resource, firstLine: row.line, months: new Map() };
  }

  /** Whether the row describes the resource as its first row did; reports each difference. */
  function sameResource(
    row: CsvRow<UsageCsvColumn>,
    known: ResourceInFile,
    price: number | undefined,
  ): boolean {
    let same = true;
    const { resource, firstLine } = known;
    for (const [column, field] of resourceColumns) {
      const value = row.value(column);
      if (value !== resource[field]) {
        row.error(
          `${column} of resource ${resource.resourceId} is '${value}' here but '${resource[field]}' on line ${firstLine}`,
        );
        same = false;
      }
    }
    const deployment = deploymentOf(row);
    if (deployment !== (resource.deploymentOption ?? 'Single-AZ')) {
      row.error(
        `deployment_option of resource ${resource.resourceId} is '${deployment}' here but '${resource.deploymentOption ?? 'Single-AZ'}' on line ${firstLine}`,
      );
      same = false;
    }
    if (!same) return false;
    const ondemandPrice = price ?? catalogPrice(row, resource.provider);
    if (ondemandPrice === undefined) return false;
    if (ondemandPrice !== resource.ondemandPrice) {
      row.error(
        `ondemand_price of resource ${resource.resourceId} is ${ondemandPrice} here but ${resource.ondemandPrice} on line ${firstLine} (one price per resource)`,
      );
      return false;
    }
    return true;
  }

  const reader = new CsvReader<UsageCsvColumn>(
    usageCsvColumns,
    (row) => {
      const values = readRow(row);
      if (!values) return;
      const { hour, provider, resourceId, units, price } = values;
      let inFile = providers.get(provider);
      if (!inFile) {
        inFile = { resources: new Map(), firstHour: hour.hour, lastHour: hour.hour, rows: 0 };
        providers.set(provider, inFile);
      }
      let known = inFile.resources.get(resourceId);
      if (!known) {
        known = newResource(row, provider, price);
        if (!known) return;
        inFile.resources.set(resourceId, known);
      } else if (!sameResource(row, known, price)) {
        return;
      }
      let month = known.months.get(hour.month);
      if (!month) {
        month = new Float64Array(hoursInMonth(hour.month)).fill(Number.NaN);
        known.months.set(hour.month, month);
      }
      if (!Number.isNaN(month[hour.indexInMonth])) {
        row.error(`resource ${resourceId} has a row for ${isoHour(hour.hour)} already`);
        return;
      }
      month[hour.indexInMonth] = units;
      inFile.firstHour = Math.min(inFile.firstHour, hour.hour);
      inFile.lastHour = Math.max(inFile.lastHour, hour.hour);
      inFile.rows += 1;
    },
    optionalUsageCsvColumns,
  );

  return {
    placesOf(records) {
      const places = new Set<string>();
      for (const value of reader.peek(records)) {
        const provider = value('provider');
        if (value('ondemand_price') !== '' || value('usage_type') !== 'running') continue;
        if ((cloudProviders as readonly string[]).includes(provider))
          places.add(`${provider}|${value('region')}`);
      }
      return places;
    },
    push: (record) => reader.push(record),
    get rows() {
      return reader.rows;
    },
    finish() {
      reader.finish();
      const parsed: ProviderUsage[] = [];
      for (const provider of cloudProviders) {
        const inFile = providers.get(provider);
        if (!inFile) continue;
        const series: ImportedSeries[] = [];
        for (const { resource, months } of inFile.resources.values()) {
          for (const values of months.values()) {
            for (let hour = 0; hour < values.length; hour++) {
              if (Number.isNaN(values[hour])) values[hour] = 0;
            }
          }
          series.push({ resource, months });
        }
        parsed.push({
          provider,
          covered: { firstHour: inFile.firstHour, lastHour: inFile.lastHour },
          rows: inFile.rows,
          series,
        });
      }
      return { rows: reader.rows, providers: parsed };
    },
  };
}
