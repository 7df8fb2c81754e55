import { describe, expect, it } from 'vitest';
import { createAwsOfferFileReader } from '../../../shared/domain/catalog/aws-offer-file';
import { PROVIDER_TERM_HOURS } from '../../../shared/domain/catalog/catalog-terms';
import {
  fixtureList,
  fixturePriceLists,
  SNAPSHOT_PLATFORMS,
  x2iednSnapshot,
} from '../../support/price-list-fixtures';

const lists = await fixturePriceLists(['aws']);
const SNAPSHOT_TERMS = { one_year: 'yrTerm1', three_year: 'yrTerm3' } as const;
const SNAPSHOT_PAYMENTS = {
  'No Upfront': 'noUpfront',
  'Partial Upfront': 'partialUpfront',
  'All Upfront': 'allUpfront',
} as const;

describe('AWS price list files', () => {
  it('reads every region the EC2 region index names, with the publication dates of each file', () => {
    expect(lists.map((list) => list.region)).toEqual(['us-east-1', 'eu-west-2']);
    expect(fixtureList(lists, 'aws', 'us-east-1').published).toEqual({
      AmazonEC2: '2024-11-18T21:05:38Z',
      AmazonRDS: '2024-11-15T18:47:29Z',
      AWSComputeSavingsPlan: '2024-11-19T00:26:51Z',
    });
  });

  it('gives the on-demand price of each EC2 platform as the list writes it', () => {
    const list = fixtureList(lists, 'aws', 'us-east-1');
    const price = (instanceType: string, operatingSystem: string) =>
      list.instances.find((i) => i.instanceType === instanceType && i.operatingSystem === operatingSystem)
        ?.ondemand;
    expect(price('m5.large', 'Linux')).toBe(0.096);
    expect(price('m5.large', 'Windows')).toBe(0.188);
    expect(price('m5.large', 'RHEL')).toBe(0.1248);
    expect(price('m5.large', 'SUSE')).toBe(0.126);
    expect(price('m5.large', 'Linux with SQL Std')).toBe(0.576);
    expect(list.instances.find((i) => i.instanceType === 'x2iedn.32xlarge')?.sizeFactor).toBe(256);
  });

  it('equals the real x2iedn snapshot: every on-demand price and every reservation effective rate', () => {
    const snapshot = x2iednSnapshot();
    let checked = 0;
    for (const region of ['us-east-1', 'eu-west-2']) {
      const list = fixtureList(lists, 'aws', region);
      for (const [platform, key] of Object.entries(SNAPSHOT_PLATFORMS)) {
        const prices = snapshot[region]?.[key];
        if (!prices) throw new Error(`no snapshot ${region} ${key}`);
        const instance = list.instances.find(
          (i) => i.instanceType === 'x2iedn.32xlarge' && i.operatingSystem === platform,
        );
        expect(instance?.ondemand).toBe(Number(prices.ondemand));
        for (const reservation of list.reservations.filter(
          (r) => r.instanceType === 'x2iedn.32xlarge' && r.operatingSystem === platform,
        )) {
          const offeringClass = reservation.contractType === 'standard_ris' ? 'Standard' : 'Convertible';
          const listed = Number(
            prices.reserved[
              `${SNAPSHOT_TERMS[reservation.term]}${offeringClass}.${SNAPSHOT_PAYMENTS[reservation.paymentOption]}`
            ],
          );
          const effective =
            reservation.upfront / PROVIDER_TERM_HOURS[reservation.term] + reservation.recurring;
          // AWS writes upfront fees in whole dollars: the effective rate is the snapshot's to that rounding.
          expect(Math.abs(effective - listed)).toBeLessThanOrEqual(0.5 / 8760 + 1e-6);
          checked++;
        }
      }
    }
    // 2 regions x 7 platforms x 2 classes x 2 terms x 3 payment options.
    expect(checked).toBe(168);
  });

  it('keeps an upfront fee and its hourly rate as one reservation, as the list splits them', () => {
    const list = fixtureList(lists, 'aws', 'us-east-1');
    const partial = list.reservations.find(
      (r) =>
        r.instanceType === 'm5.large' &&
        r.operatingSystem === 'Linux' &&
        r.contractType === 'standard_ris' &&
        r.term === 'one_year' &&
        r.paymentOption === 'Partial Upfront',
    );
    // The fixture's line pair: Upfront Fee 245 (Quantity) and 0.028 per hour.
    expect(partial).toMatchObject({ upfront: 245, recurring: 0.028 });
  });

  it('leaves out dedicated tenancy, capacity reservations, Local Zones and storage', () => {
    const list = fixtureList(lists, 'aws', 'us-east-1');
    expect(list.instances.every((i) => i.tenancy === 'Shared')).toBe(true);
    // m5.large Linux is priced once: the unused capacity reservation line at the same price is not a second price.
    expect(
      list.instances.filter((i) => i.instanceType === 'm5.large' && i.operatingSystem === 'Linux'),
    ).toHaveLength(1);
    expect(list.instances.filter((i) => i.instanceType === 't3.micro').map((i) => i.ondemand)).toEqual([
      0.0104,
    ]);
  });

  it('prices RDS engines by deployment, edition and licence', () => {
    const list = fixtureList(lists, 'aws', 'us-east-1');
    const rds = list.instances.filter((i) => i.service === 'AmazonRDS');
    const price = (instanceType: string, engine: string, deployment: string) =>
      rds.find(
        (i) =>
          i.instanceType === instanceType &&
          i.operatingSystem === engine &&
          i.deploymentOption === deployment,
      )?.ondemand;
    expect(price('db.m5.large', 'MySQL', 'Single-AZ')).toBe(0.171);
    expect(price('db.m5.large', 'MySQL', 'Multi-AZ')).toBe(0.342);
    expect(price('db.m5.large', 'PostgreSQL', 'Single-AZ')).toBe(0.178);
    expect(price('db.m5.large', 'Oracle Standard Two LI', 'Single-AZ')).toBe(0.544);
    expect(price('db.m5.large', 'Oracle Enterprise BYOL', 'Single-AZ')).toBe(0.171);
    expect(price('db.m5.xlarge', 'SQL Server Web LI', 'Multi-AZ')).toBe(0.82);
    // Aurora is not one of the engines planned.
    expect(rds.some((i) => i.operatingSystem.startsWith('Aurora'))).toBe(false);
    const mysqlRis = list.reservations.filter(
      (r) =>
        r.instanceType === 'db.m5.large' &&
        r.operatingSystem === 'MySQL' &&
        r.deploymentOption === 'Single-AZ',
    );
    expect(mysqlRis.map((r) => `${r.term} ${r.paymentOption}`).sort()).toEqual([
      'one_year All Upfront',
      'one_year No Upfront',
      'one_year Partial Upfront',
      'three_year All Upfront',
      'three_year Partial Upfront',
    ]);
  });

  it('reads Savings Plans rates of the instances the EC2 file prices, named by usage type and operation', () => {
    const list = fixtureList(lists, 'aws', 'us-east-1');
    const rate = (planType: string, instanceType: string, operatingSystem: string) =>
      list.spendRates.find(
        (r) =>
          r.planType === planType &&
          r.instanceType === instanceType &&
          r.operatingSystem === operatingSystem &&
          r.term === 'one_year' &&
          r.paymentOption === 'No Upfront',
      )?.rate;
    expect(rate('ComputeSavingsPlans', 'm5.large', 'Linux')).toBe(0.06912);
    expect(rate('ComputeSavingsPlans', 'm5.large', 'Windows')).toBe(0.13536);
    expect(rate('EC2InstanceSavingsPlans', 'm5.large', 'Linux')).toBe(0.06048);
    // The Local Zone's t3.micro rate names a usage type the region's EC2 file does not price.
    expect(list.spendRates.filter((r) => r.instanceType === 't3.micro' && r.rate === 0.009)).toEqual([]);
  });

  it('refuses a file that is not a price list, naming the line', () => {
    const reader = createAwsOfferFileReader();
    expect(() => reader.record(['account', 'cost'], 1)).toThrow(
      /line 1: expected a metadata line or the header/,
    );
    const headerless = createAwsOfferFileReader();
    headerless.record(['FormatVersion', 'v1.0'], 1);
    expect(() => headerless.result()).toThrow(/no header line/);
  });
});
