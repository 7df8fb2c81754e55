import { describe, expect, it } from 'vitest';
import { loadCatalog } from '../../../shared/domain/catalog/catalog';
import {
  createCommitmentCsvParser,
  type ParsedCommitments,
} from '../../../shared/domain/commitments/commitment-csv';
import { CsvImportError } from '../../../shared/domain/csv/csv-import-error';
import { recordsOfLines } from '../../support/csv-records';

const header =
  'provider,account_id,region,contract_type,instance_type,quantity,hourly_commitment,upfront_cost,recurring_cost,start,end,lockin_end';

const reservation = {
  provider: 'aws',
  account_id: '111111111111',
  region: 'us-east-1',
  contract_type: 'standard_ris',
  instance_type: 'm5.large',
  quantity: '4',
  hourly_commitment: '0',
  upfront_cost: '1000',
  recurring_cost: '0.1',
  start: '2026-01-01T00:00:00Z',
  end: '2027-01-01T00:00:00Z',
  lockin_end: '',
};

const savingsPlan = {
  ...reservation,
  region: '',
  contract_type: 'compute_plans',
  instance_type: '',
  quantity: '0',
  hourly_commitment: '2.5',
  upfront_cost: '0',
  recurring_cost: '2.5',
};

function row(values: Record<string, string>): string {
  return header
    .split(',')
    .map((column) => values[column])
    .join(',');
}

function parse(lines: string[], orgId = 'org-1'): ParsedCommitments {
  const parser = createCommitmentCsvParser(orgId, loadCatalog());
  for (const record of recordsOfLines(lines)) parser.push(record);
  return parser.finish();
}

function errorsOf(lines: string[]): string[] {
  try {
    parse(lines);
  } catch (error) {
    if (error instanceof CsvImportError) return error.errors.map((e) => `line ${e.line}: ${e.message}`);
    throw error;
  }
  throw new Error('the file was accepted');
}

describe('commitments CSV', () => {
  it('reads reservations and spend commitments per provider, lock-in ending with the term when empty', () => {
    // Act
    const parsed = parse([
      header,
      row({
        ...reservation,
        provider: 'azure',
        contract_type: 'vm',
        region: 'eastus',
        instance_type: 'Standard_D4s_v5',
      }),
      row(reservation),
      row({
        ...savingsPlan,
        start: '2026-03-01',
        end: '2026-04-01',
        lockin_end: '2026-03-15T12:00:00+02:00',
      }),
    ]);

    // Assess
    expect(parsed.rows).toBe(3);
    expect(parsed.providers.map((p) => [p.provider, p.commitments.length])).toEqual([
      ['aws', 2],
      ['azure', 1],
    ]);
    const [ri, plan] = parsed.providers[0]?.commitments ?? [];
    expect(ri).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
      provider: 'aws',
      accountId: '111111111111',
      region: 'us-east-1',
      contractType: 'standard_ris',
      instanceType: 'm5.large',
      quantity: 4,
      hourlyCommitment: 0,
      upfrontCost: 1000,
      recurringCost: 0.1,
      start: '2026-01-01T00:00:00Z',
      end: '2027-01-01T00:00:00Z',
      lockinEnd: '2027-01-01T00:00:00Z',
    });
    expect(plan).toMatchObject({
      region: '',
      contractType: 'compute_plans',
      instanceType: null,
      quantity: 0,
      hourlyCommitment: 2.5,
      start: '2026-03-01T00:00:00Z',
      end: '2026-04-01T00:00:00Z',
      lockinEnd: '2026-03-15T10:00:00Z',
    });
  });

  it('derives ids from the org and the values: stable across imports, distinct for two equal rows', () => {
    // Act
    const first = parse([header, row(reservation), row(reservation)]).providers[0]?.commitments ?? [];
    const again =
      parse([header, row({ ...reservation, quantity: '4.0' }), row(reservation)]).providers[0]?.commitments ??
      [];
    const otherOrg = parse([header, row(reservation)], 'org-2').providers[0]?.commitments ?? [];

    // Assess
    expect(first[0]?.id).not.toBe(first[1]?.id);
    expect(again.map((c) => c.id)).toEqual(first.map((c) => c.id));
    expect(otherOrg[0]?.id).not.toBe(first[0]?.id);
  });

  it('reports each bad value with its line number', () => {
    expect(
      errorsOf([
        header,
        row({ ...reservation, provider: 'oracle' }),
        row({ ...reservation, contract_type: 'vm' }),
        row({ ...reservation, account_id: '' }),
        row({ ...reservation, upfront_cost: '-1', recurring_cost: '' }),
        row({ ...reservation, start: '2026-01-01T00:00:00' }),
        row({ ...reservation, end: '' }),
        row({ ...reservation, start: '2027-01-01', end: '2026-01-01' }),
        row({ ...reservation, lockin_end: '2027-01-02' }),
        row({ ...reservation, lockin_end: '2025-12-31' }),
      ]),
    ).toEqual([
      'line 2: provider must be one of aws, azure, gcp; got oracle',
      'line 3: contract_type must be one of standard_ris, convertible_ris, db_ris, compute_plans, instance_plans, leased_ris, leased_compute_plans for aws; got vm',
      'line 4: account_id is required',
      'line 5: upfront_cost must be a number >= 0; got -1',
      'line 5: recurring_cost is required (a number >= 0)',
      'line 6: start must be an ISO 8601 date (2026-06-01) or timestamp with offset (2026-06-01T13:00:00Z); got 2026-01-01T00:00:00',
      'line 7: end is required (an ISO 8601 date or timestamp)',
      'line 8: start must be before end',
      'line 9: lockin_end must be within [start, end]',
      'line 10: lockin_end must be within [start, end]',
    ]);
  });

  it('requires a reservation to count instances and a spend commitment to commit dollars, not both', () => {
    expect(
      errorsOf([
        header,
        row({ ...reservation, quantity: '0', hourly_commitment: '1' }),
        row({ ...reservation, quantity: '1.5', region: '', instance_type: '' }),
        row({ ...savingsPlan, quantity: '2', hourly_commitment: '0', instance_type: 'm5.large' }),
      ]),
    ).toEqual([
      'line 2: quantity must be a whole number > 0 for a reservation (standard_ris)',
      'line 2: hourly_commitment must be 0 for a reservation (standard_ris)',
      'line 3: region is required for a reservation (standard_ris)',
      'line 3: instance_type is required for a reservation (standard_ris)',
      'line 3: quantity must be a whole number > 0 for a reservation (standard_ris)',
      'line 4: instance_type must be empty for a spend commitment (compute_plans)',
      'line 4: hourly_commitment must be > 0 for a spend commitment (compute_plans)',
      'line 4: quantity must be 0 for a spend commitment (compute_plans)',
    ]);
  });
});

describe('commitments CSV: what a commitment covers', () => {
  const fullHeader = `${header},operating_system,tenancy,deployment_option,instance_family,payment_option,availability_zone`;
  const attributes = {
    operating_system: '',
    tenancy: '',
    deployment_option: '',
    instance_family: '',
    payment_option: '',
    availability_zone: '',
  };
  const fullRow = (values: Record<string, string>) =>
    fullHeader
      .split(',')
      .map((column) => values[column])
      .join(',');
  const instancePlan = {
    ...savingsPlan,
    region: 'us-east-1',
    contract_type: 'instance_plans',
    ...attributes,
    instance_family: 'm5',
  };

  it('reads platform, tenancy, zone, engine, deployment, family and payment option where given', () => {
    const parsed = parse([
      fullHeader,
      fullRow({
        ...reservation,
        ...attributes,
        operating_system: 'Windows',
        tenancy: 'Dedicated',
        availability_zone: 'us-east-1a',
      }),
      fullRow({
        ...reservation,
        ...attributes,
        contract_type: 'db_ris',
        instance_type: 'db.m5.large',
        operating_system: 'PostgreSQL',
        deployment_option: 'Multi-AZ',
        payment_option: 'Partial Upfront',
      }),
      fullRow(instancePlan),
    ]);

    const [windows, database, plan] = parsed.providers[0]?.commitments ?? [];
    expect(windows).toMatchObject({
      operatingSystem: 'Windows',
      tenancy: 'Dedicated',
      availabilityZone: 'us-east-1a',
    });
    expect(windows).not.toHaveProperty('deploymentOption');
    expect(database).toMatchObject({
      operatingSystem: 'PostgreSQL',
      deploymentOption: 'Multi-AZ',
      paymentOption: 'Partial Upfront',
    });
    expect(plan).toMatchObject({ contractType: 'instance_plans', instanceFamily: 'm5', region: 'us-east-1' });
    expect(plan).not.toHaveProperty('operatingSystem');
  });

  it('imports a file without the optional columns as before: same commitments, same ids, defaults left to the engine', () => {
    const before = parse([header, row(reservation), row(savingsPlan)]);
    const withEmptyColumns = parse([
      fullHeader,
      fullRow({ ...reservation, ...attributes }),
      fullRow({ ...savingsPlan, ...attributes }),
    ]);

    expect(withEmptyColumns).toEqual(before);
    for (const owned of before.providers[0]?.commitments ?? []) {
      expect(owned).not.toHaveProperty('operatingSystem');
      expect(owned).not.toHaveProperty('paymentOption');
    }
  });

  it('accepts the optional columns in any order and any subset', () => {
    const parsed = parse([
      `payment_option,${header},operating_system`,
      `All Upfront,${row(reservation)},Windows`,
    ]);

    expect(parsed.providers[0]?.commitments[0]).toMatchObject({
      paymentOption: 'All Upfront',
      operatingSystem: 'Windows',
    });
  });

  it('names the line and column of each bad optional value', () => {
    expect(
      errorsOf([
        fullHeader,
        fullRow({ ...instancePlan, instance_family: '' }),
        fullRow({ ...instancePlan, region: '' }),
        fullRow({ ...reservation, ...attributes, tenancy: 'shared' }),
        fullRow({ ...reservation, ...attributes, payment_option: 'Monthly' }),
        fullRow({ ...reservation, ...attributes, deployment_option: 'Multi-AZ' }),
        fullRow({
          ...reservation,
          ...attributes,
          contract_type: 'db_ris',
          instance_type: 'db.m5.large',
          deployment_option: 'Triple-AZ',
        }),
        fullRow({ ...savingsPlan, ...attributes, operating_system: 'Linux', instance_family: 'm5' }),
        fullRow({ ...reservation, ...attributes, instance_family: 'm5' }),
      ]),
    ).toEqual([
      'line 2: instance_family is required for an EC2 Instance Savings Plan (instance_plans)',
      'line 3: region is required for an EC2 Instance Savings Plan (instance_plans)',
      'line 4: tenancy must be one of Shared, Dedicated; got shared',
      'line 5: payment_option must be one of No Upfront, Partial Upfront, All Upfront; got Monthly',
      'line 6: deployment_option must be empty for anything but an RDS reservation (standard_ris); got Multi-AZ',
      'line 7: deployment_option must be one of Single-AZ, Multi-AZ; got Triple-AZ',
      'line 8: operating_system must be empty for a spend commitment (compute_plans); got Linux',
      'line 8: instance_family must be empty for anything but an EC2 Instance Savings Plan (compute_plans); got m5',
      'line 9: instance_family must be empty for a reservation (standard_ris); got m5',
    ]);
  });

  it('rejects an unknown column, naming the optional ones', () => {
    expect(errorsOf([`${header},platform`, `${row(reservation)},Linux`])).toEqual([
      'line 1: bad header: unknown columns: platform (expected provider,account_id,region,contract_type,instance_type,quantity,hourly_commitment,upfront_cost,recurring_cost,start,end,lockin_end, in any order; optional: operating_system, tenancy, deployment_option, instance_family, payment_option, availability_zone)',
    ]);
  });
});
