import type { DeploymentOption } from '../engine/shapes/model';
import { ec2Platforms } from '../usage/exports/aws-instance-hours';
import { CatalogDataError } from './catalog-terms';
import {
  emptySkips,
  type ListedInstance,
  type ListedReservation,
  paymentOptionOf,
  priceOf,
  type ReadSkips,
  skip,
  termOf,
} from './price-list';

/**
 * The reader of one AWS Price List service file in its CSV form (docs/catalog.md, AWS price list
 * files): five metadata lines (`FormatVersion`, `Disclaimer`, `Publication Date`, `Version`,
 * `OfferCode`), the column names, then one line per price dimension (a SKU's on-demand rate, or
 * one of a reservation term's `Upfront Fee` and hourly rates). Fed one CSV record at a time, so
 * a region's file of hundreds of megabytes is read as a stream and never held whole.
 *
 * Read: `AmazonEC2` instance hours in an AWS Region (`Compute Instance`, shared tenancy, capacity
 * status `Used`) for the platforms the usage readers name (Linux, Windows, RHEL, SUSE, Linux and
 * Windows with SQL Server), and `AmazonRDS` database instances of MySQL, PostgreSQL, MariaDB,
 * Oracle and SQL Server, Single-AZ and Multi-AZ, licence included and BYOL; their on-demand prices
 * and reservations (Standard and Convertible, 1 and 3 years, every payment option).
 */

export interface AwsOfferFileMetadata {
  readonly formatVersion: string;
  readonly publicationDate: string;
  readonly version: string;
  readonly offerCode: string;
}

/** An on-demand price with what the Savings Plans files use to name it (usage type, operation). */
export interface AwsListedInstance extends ListedInstance {
  readonly usageType: string;
  readonly operation: string;
}

export interface AwsOfferFile {
  readonly metadata: AwsOfferFileMetadata;
  readonly instances: readonly AwsListedInstance[];
  readonly reservations: readonly ListedReservation[];
  readonly skips: ReadSkips;
  readonly rows: number;
}

const METADATA_KEYS: Readonly<Record<string, keyof AwsOfferFileMetadata>> = {
  FormatVersion: 'formatVersion',
  'Publication Date': 'publicationDate',
  Version: 'version',
  OfferCode: 'offerCode',
};

/** Columns are found by name without case or spaces: the files spell `operation` and `Usage Type`. */
function columnKey(name: string): string {
  return name.toLowerCase().replace(/[\s/_-]/g, '');
}

interface Reserved {
  row: Row;
  upfront: number;
  recurring: number;
}

type Row = (column: string) => string;

export interface AwsOfferFileReader {
  /** One CSV record, with its line number (for error messages). */
  record(fields: readonly string[], line: number): void;
  result(): AwsOfferFile;
}

export function createAwsOfferFileReader(): AwsOfferFileReader {
  const metadata: Record<string, string> = {};
  let columns: Map<string, number> | undefined;
  const instances = new Map<string, AwsListedInstance>();
  const reserved = new Map<string, Reserved>();
  const skips = emptySkips();
  let rows = 0;

  function header(fields: readonly string[], line: number): void {
    columns = new Map(fields.map((name, index) => [columnKey(name), index]));
    for (const required of ['sku', 'offertermcode', 'termtype', 'unit', 'priceperunit', 'instancetype']) {
      if (!columns.has(required)) {
        throw new CatalogDataError(`AWS price list line ${line}: no ${required} column in the header`);
      }
    }
    if (!metadata.offerCode) throw new CatalogDataError(`AWS price list line ${line}: no OfferCode line`);
  }

  function row(fields: readonly string[], line: number): void {
    rows++;
    const at = columns as Map<string, number>;
    const get: Row = (column) => {
      const index = at.get(column);
      return index === undefined ? '' : (fields[index] ?? '');
    };
    const described = describe(metadata.offerCode as string, get);
    if (typeof described === 'string') {
      skip(skips, described, `line ${line}`);
      return;
    }
    const termType = get('termtype');
    const price = priceOf(get('priceperunit'));
    if (price === undefined || get('currency') !== 'USD') {
      skip(skips, 'not_a_usd_price', `line ${line}`);
      return;
    }
    if (termType === 'OnDemand') {
      if (get('unit') !== 'Hrs' || price === 0) {
        skip(skips, 'not_an_hourly_price', `line ${line}`);
        return;
      }
      const key = instanceKey(described);
      const sizeFactor = priceOf(get('normalizationsizefactor'));
      const listed: AwsListedInstance = {
        ...described,
        ...(sizeFactor ? { sizeFactor } : {}),
        ondemand: price,
        usageType: get('usagetype'),
        operation: get('operation'),
      };
      const known = instances.get(key);
      if (known && known.ondemand !== price) skip(skips, 'priced_twice', `line ${line}: ${key}`);
      else instances.set(key, listed);
      return;
    }
    if (termType !== 'Reserved') {
      skip(skips, 'not_on_demand_or_reserved', `line ${line}`);
      return;
    }
    const unit = get('unit');
    if (unit !== 'Quantity' && unit !== 'Hrs') {
      skip(skips, 'not_an_hourly_price', `line ${line}`);
      return;
    }
    // A term is one line per price (its upfront fee, its hourly rate): keep the first line's columns.
    const termKey = `${get('sku')}|${get('offertermcode')}`;
    let entry = reserved.get(termKey);
    if (!entry) {
      entry = { row: snapshot(get), upfront: 0, recurring: 0 };
      reserved.set(termKey, entry);
    }
    if (unit === 'Quantity') entry.upfront = price;
    else entry.recurring = price;
  }

  return {
    record(fields, line) {
      if (columns) return row(fields, line);
      const name = fields[0] ?? '';
      const key = METADATA_KEYS[name];
      if (key) metadata[key] = fields[1] ?? '';
      else if (name === 'SKU') header(fields, line);
      else if (name !== 'Disclaimer') {
        throw new CatalogDataError(`AWS price list line ${line}: expected a metadata line or the header`);
      }
    },
    result() {
      if (!columns) throw new CatalogDataError('AWS price list: no header line');
      return {
        metadata: {
          formatVersion: metadata.formatVersion ?? '',
          publicationDate: metadata.publicationDate ?? '',
          version: metadata.version ?? '',
          offerCode: metadata.offerCode ?? '',
        },
        instances: [...instances.values()],
        reservations: reservations(metadata.offerCode ?? '', reserved, skips),
        skips,
        rows,
      };
    },
  };
}

/** The columns a reservation is described by, copied out of the record. */
function snapshot(get: Row): Row {
  const kept = new Map<string, string>();
  for (const column of [
    'leasecontractlength',
    'purchaseoption',
    'offeringclass',
    'instancetype',
    'operation',
    'databaseengine',
    'databaseedition',
    'licensemodel',
    'deploymentoption',
    'preinstalledsw',
    'operatingsystem',
    'tenancy',
    'capacitystatus',
    'locationtype',
    'productfamily',
    'usagetype',
  ]) {
    kept.set(column, get(column));
  }
  return (column) => kept.get(column) ?? '';
}

function reservations(
  offerCode: string,
  reserved: ReadonlyMap<string, Reserved>,
  skips: ReadSkips,
): ListedReservation[] {
  const listed: ListedReservation[] = [];
  for (const [termKey, { row, upfront, recurring }] of reserved) {
    const term = termOf(row('leasecontractlength'));
    const paymentOption = paymentOptionOf(row('purchaseoption'));
    if (!term || !paymentOption) {
      skip(skips, 'unknown_term', termKey);
      continue;
    }
    const described = describe(offerCode, row);
    if (typeof described === 'string') continue;
    const offeringClass = row('offeringclass');
    const contractType =
      described.service === 'AmazonRDS'
        ? 'db_ris'
        : offeringClass === 'convertible'
          ? 'convertible_ris'
          : offeringClass === 'standard'
            ? 'standard_ris'
            : undefined;
    if (!contractType) {
      skip(skips, 'unknown_offering_class', termKey);
      continue;
    }
    listed.push({ ...described, contractType, term, paymentOption, upfront, recurring });
  }
  return listed;
}

type Described = Pick<
  ListedInstance,
  'service' | 'instanceType' | 'operatingSystem' | 'tenancy' | 'deploymentOption'
>;

/** What the row prices, or why it is not read. */
function describe(offerCode: string, get: Row): Described | string {
  if (offerCode === 'AmazonEC2') return describeEc2(get);
  if (offerCode === 'AmazonRDS') return describeRds(get);
  return 'not_ec2_or_rds';
}

function describeEc2(get: Row): Described | string {
  if (!get('productfamily').startsWith('Compute Instance')) return 'not_compute_instance';
  if (get('locationtype') !== 'AWS Region') return 'not_an_aws_region';
  if (get('tenancy') !== 'Shared') return 'not_shared_tenancy';
  // `Used` is the instance's own price; `UnusedCapacityReservation` and `AllocatedCapacityReservation` are not.
  const capacity = get('capacitystatus');
  if (capacity !== '' && capacity !== 'Used') return 'capacity_reservation';
  const platform = ec2Platforms[get('operation')];
  if (!platform || platform === 'Windows BYOL') return 'platform_not_planned';
  const instanceType = get('instancetype');
  if (!instanceType) return 'no_instance_type';
  return { service: 'AmazonEC2', instanceType, operatingSystem: platform, tenancy: 'Shared' };
}

const RDS_ENGINES = new Set(['MySQL', 'PostgreSQL', 'MariaDB', 'Oracle', 'SQL Server']);

function describeRds(get: Row): Described | string {
  if (get('productfamily') !== 'Database Instance') return 'not_database_instance';
  if (get('locationtype') !== 'AWS Region') return 'not_an_aws_region';
  const engine = get('databaseengine');
  if (!RDS_ENGINES.has(engine)) return 'engine_not_planned';
  const deployment = get('deploymentoption');
  if (deployment !== 'Single-AZ' && deployment !== 'Multi-AZ') return 'deployment_not_planned';
  const instanceType = get('instancetype');
  if (!instanceType.startsWith('db.')) return 'no_instance_type';
  const operatingSystem = rdsEngineName(engine, get('databaseedition'), get('licensemodel'));
  if (!operatingSystem) return 'licence_not_planned';
  return {
    service: 'AmazonRDS',
    instanceType,
    operatingSystem,
    tenancy: 'Shared',
    deploymentOption: deployment as DeploymentOption,
  };
}

/**
 * The engine name usage and offers carry: MySQL, PostgreSQL and MariaDB as they are; Oracle and
 * SQL Server priced per edition and licence (`Oracle Standard Two BYOL`, `SQL Server Web LI`),
 * which is how AWS sells their reservations (docs/catalog.md, RDS engines).
 */
export function rdsEngineName(engine: string, edition: string, licenceModel: string): string | undefined {
  if (engine === 'MySQL' || engine === 'PostgreSQL' || engine === 'MariaDB') return engine;
  const licence =
    licenceModel === 'License included'
      ? 'LI'
      : licenceModel === 'Bring your own license'
        ? 'BYOL'
        : undefined;
  if (!licence || !edition) return undefined;
  return `${engine} ${edition} ${licence}`;
}

function instanceKey(described: Described): string {
  return [
    described.service,
    described.instanceType,
    described.operatingSystem,
    described.tenancy,
    described.deploymentOption ?? '',
  ].join('|');
}
