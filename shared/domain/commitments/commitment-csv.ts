import type { Catalog } from '../catalog/catalog';
import { cloudProviders } from '../cloud-providers';
import { type CsvFileParser, CsvReader, type CsvRow } from '../csv/csv-reader';
import { parseDecimal } from '../csv/csv-values';
import { deterministicUuid } from '../deterministic-id';
import {
  type DeploymentOption,
  deploymentOptions,
  type ExistingCommitment,
  type OfferContractType,
  type PaymentOption,
  type Provider,
} from '../engine/shapes/model';
import { isoTimestamp, parseIsoDateOrTimestamp } from '../iso-timestamps';

/** The columns of a commitments file (docs/import.md): one row per owned commitment. */
export const commitmentCsvColumns = [
  'provider',
  'account_id',
  'region',
  'contract_type',
  'instance_type',
  'quantity',
  'hourly_commitment',
  'upfront_cost',
  'recurring_cost',
  'start',
  'end',
  'lockin_end',
] as const;

/**
 * Columns a header may leave out (files written before them import unchanged): what decides the
 * usage a commitment covers and at which rate. Empty: the defaults of docs/import.md.
 */
export const optionalCommitmentCsvColumns = [
  'operating_system',
  'tenancy',
  'deployment_option',
  'instance_family',
  'payment_option',
  'availability_zone',
] as const;

export type CommitmentCsvColumn =
  | (typeof commitmentCsvColumns)[number]
  | (typeof optionalCommitmentCsvColumns)[number];

const tenancies = ['Shared', 'Dedicated'] as const;
const paymentOptions: readonly PaymentOption[] = ['No Upfront', 'Partial Upfront', 'All Upfront'];

/** What the optional columns say of a commitment: only the fields a row gives. */
type CommitmentAttributes = Pick<
  ExistingCommitment,
  'operatingSystem' | 'tenancy' | 'deploymentOption' | 'instanceFamily' | 'paymentOption' | 'availabilityZone'
>;

/** A provider's commitments in a valid file. */
export interface ProviderCommitments {
  readonly provider: Provider;
  readonly commitments: readonly ExistingCommitment[];
}

export interface ParsedCommitments {
  readonly rows: number;
  /** In the order aws, azure, gcp; providers without rows are absent. */
  readonly providers: readonly ProviderCommitments[];
}

/** Whether a provider's contract type reserves instances or commits spend, as the catalog offers it. */
type CommitmentKind = 'reservation' | 'spend';

/** The contract types the catalog offers per provider: the ones the planner can account for. */
function contractKinds(catalog: Catalog): Map<Provider, Map<OfferContractType, CommitmentKind>> {
  const kinds = new Map<Provider, Map<OfferContractType, CommitmentKind>>();
  for (const provider of cloudProviders) {
    const ofProvider = new Map<OfferContractType, CommitmentKind>();
    for (const offer of catalog.offers(provider)) {
      ofProvider.set(offer.contractType, offer.scope.kind === 'spend' ? 'spend' : 'reservation');
    }
    kinds.set(provider, ofProvider);
  }
  return kinds;
}

/**
 * Parses and validates a commitments file streamed line by line (docs/import.md). Every problem
 * is reported with its line number; nothing is answered unless the whole file is valid. Ids are
 * derived from the org and the row's values, so importing the same file again keeps them; rows
 * with identical values (two equal purchases) are told apart by their order.
 */
export function createCommitmentCsvParser(orgId: string, catalog: Catalog): CsvFileParser<ParsedCommitments> {
  const kindsByProvider = contractKinds(catalog);
  const byProvider = new Map<Provider, ExistingCommitment[]>();
  const occurrences = new Map<string, number>();

  function readRow(row: CsvRow<CommitmentCsvColumn>): Omit<ExistingCommitment, 'id'> | undefined {
    let valid = true;
    const fail = (message: string) => {
      row.error(message);
      valid = false;
    };
    const amount = (column: CommitmentCsvColumn) => {
      const text = row.value(column);
      const value = parseDecimal(text);
      if (value === undefined || value < 0) {
        fail(
          text === ''
            ? `${column} is required (a number >= 0)`
            : `${column} must be a number >= 0; got ${text}`,
        );
        return 0;
      }
      return value;
    };
    const instant = (column: CommitmentCsvColumn) => {
      const text = row.value(column);
      const ms = parseIsoDateOrTimestamp(text);
      if (ms === undefined) {
        fail(
          text === ''
            ? `${column} is required (an ISO 8601 date or timestamp)`
            : `${column} must be an ISO 8601 date (2026-06-01) or timestamp with offset (2026-06-01T13:00:00Z); got ${text}`,
        );
      }
      return ms;
    };

    const provider = row.value('provider') as Provider;
    const kinds = kindsByProvider.get(provider);
    if (!kinds) fail(`provider must be one of ${cloudProviders.join(', ')}; got ${row.value('provider')}`);
    const accountId = row.value('account_id');
    if (accountId === '') fail('account_id is required');
    const contractType = row.value('contract_type') as OfferContractType;
    const kind = kinds?.get(contractType);
    if (kinds && !kind) {
      fail(
        `contract_type must be one of ${[...kinds.keys()].join(', ')} for ${provider}; got ${contractType}`,
      );
    }
    const region = row.value('region');
    const instanceType = row.value('instance_type');
    const quantity = amount('quantity');
    const hourlyCommitment = amount('hourly_commitment');
    const upfrontCost = amount('upfront_cost');
    const recurringCost = amount('recurring_cost');
    if (kind === 'reservation') {
      if (region === '') fail(`region is required for a reservation (${contractType})`);
      if (instanceType === '') fail(`instance_type is required for a reservation (${contractType})`);
      if (!Number.isInteger(quantity) || quantity <= 0) {
        fail(`quantity must be a whole number > 0 for a reservation (${contractType})`);
      }
      if (hourlyCommitment !== 0) fail(`hourly_commitment must be 0 for a reservation (${contractType})`);
    } else if (kind === 'spend') {
      if (instanceType !== '') fail(`instance_type must be empty for a spend commitment (${contractType})`);
      if (hourlyCommitment <= 0)
        fail(`hourly_commitment must be > 0 for a spend commitment (${contractType})`);
      if (quantity !== 0) fail(`quantity must be 0 for a spend commitment (${contractType})`);
    }
    const start = instant('start');
    const end = instant('end');
    const lockinEnd = row.value('lockin_end') === '' ? end : instant('lockin_end');
    if (start !== undefined && end !== undefined && start >= end) fail('start must be before end');
    else if (start !== undefined && end !== undefined && lockinEnd !== undefined) {
      if (lockinEnd < start || lockinEnd > end) fail('lockin_end must be within [start, end]');
    }
    const attributes = readAttributes(row, contractType, kind, fail);
    if (!valid) return undefined;
    return {
      ...attributes,
      provider,
      accountId,
      region,
      contractType,
      instanceType: instanceType === '' ? null : instanceType,
      quantity,
      hourlyCommitment,
      upfrontCost,
      recurringCost,
      start: isoTimestamp(start as number),
      end: isoTimestamp(end as number),
      lockinEnd: isoTimestamp(lockinEnd as number),
    };
  }

  const reader = new CsvReader<CommitmentCsvColumn>(
    commitmentCsvColumns,
    (row) => {
      const commitment = readRow(row);
      if (!commitment) return;
      const identity = [
        commitment.provider,
        commitment.accountId,
        commitment.region,
        commitment.contractType,
        commitment.instanceType ?? '',
        String(commitment.quantity),
        String(commitment.hourlyCommitment),
        String(commitment.upfrontCost),
        String(commitment.recurringCost),
        commitment.start,
        commitment.end,
        commitment.lockinEnd,
      ];
      // Only the optional values a row gives: rows of files without them keep the ids they had.
      for (const column of optionalCommitmentCsvColumns) {
        const value = row.value(column);
        if (value !== '') identity.push(`${column}=${value}`);
      }
      const key = identity.join('\u001f');
      const occurrence = occurrences.get(key) ?? 0;
      occurrences.set(key, occurrence + 1);
      const id = deterministicUuid('imported-commitment', orgId, ...identity, String(occurrence));
      let ofProvider = byProvider.get(commitment.provider);
      if (!ofProvider) {
        ofProvider = [];
        byProvider.set(commitment.provider, ofProvider);
      }
      ofProvider.push({ id, ...commitment });
    },
    optionalCommitmentCsvColumns,
  );

  return {
    push: (record) => reader.push(record),
    get rows() {
      return reader.rows;
    },
    finish() {
      reader.finish();
      const providers = cloudProviders.flatMap((provider) => {
        const commitments = byProvider.get(provider);
        return commitments ? [{ provider, commitments }] : [];
      });
      return { rows: reader.rows, providers };
    },
  };
}

/**
 * The optional columns of a row (docs/import.md): platform, tenancy and zone describe instance
 * reservations, engine and deployment RDS ones, the family an EC2 Instance Savings Plan (required
 * there); a column that does not apply to the row's contract type must be empty.
 */
function readAttributes(
  row: CsvRow<CommitmentCsvColumn>,
  contractType: OfferContractType,
  kind: CommitmentKind | undefined,
  fail: (message: string) => void,
): CommitmentAttributes {
  const attributes: {
    -readonly [K in keyof CommitmentAttributes]: CommitmentAttributes[K];
  } = {};
  const given = (column: CommitmentCsvColumn) => row.value(column);
  const notFor = (column: CommitmentCsvColumn, what: string) => {
    if (given(column) !== '')
      fail(`${column} must be empty for ${what} (${contractType}); got ${given(column)}`);
  };
  const oneOf = <T extends string>(column: CommitmentCsvColumn, allowed: readonly T[]): T | undefined => {
    const value = given(column);
    if (value === '') return undefined;
    if ((allowed as readonly string[]).includes(value)) return value as T;
    fail(`${column} must be one of ${allowed.join(', ')}; got ${value}`);
    return undefined;
  };
  const paymentOption = oneOf('payment_option', paymentOptions);
  if (paymentOption) attributes.paymentOption = paymentOption;
  if (kind === 'spend') {
    for (const column of ['operating_system', 'tenancy', 'deployment_option', 'availability_zone'] as const) {
      notFor(column, 'a spend commitment');
    }
    const family = given('instance_family');
    if (contractType === 'instance_plans') {
      if (family === '')
        fail('instance_family is required for an EC2 Instance Savings Plan (instance_plans)');
      else attributes.instanceFamily = family;
      if (row.value('region') === '')
        fail('region is required for an EC2 Instance Savings Plan (instance_plans)');
    } else notFor('instance_family', 'anything but an EC2 Instance Savings Plan');
    return attributes;
  }
  notFor('instance_family', 'a reservation');
  const operatingSystem = given('operating_system');
  if (operatingSystem !== '') attributes.operatingSystem = operatingSystem;
  const tenancy = oneOf('tenancy', tenancies);
  if (tenancy) attributes.tenancy = tenancy;
  if (contractType === 'db_ris') {
    const deploymentOption = oneOf<DeploymentOption>('deployment_option', deploymentOptions);
    if (deploymentOption) attributes.deploymentOption = deploymentOption;
  } else notFor('deployment_option', 'anything but an RDS reservation');
  const zone = given('availability_zone');
  if (zone !== '') attributes.availabilityZone = zone;
  return attributes;
}
