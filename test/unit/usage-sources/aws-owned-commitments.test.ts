import { describe, expect, it } from 'vitest';
import { deterministicUuid } from '../../../shared/domain/deterministic-id';
import {
  ec2Platform,
  ec2ReservationCommitment,
  rdsEngine,
  rdsReservationCommitment,
  savingsPlanCommitment,
} from '../../../shared/domain/usage-sources/aws-owned-commitments';

/**
 * Owned AWS commitments from the describe calls' answers, shaped as the SDK parses them
 * (the values as the API reference's examples give them).
 */
const where = { accountId: '444455556666', region: 'eu-west-1' };

describe('an EC2 reservation', () => {
  const reservation = {
    ReservedInstancesId: 'e5a2ff3b-7d14-494f-90af-0b5d0EXAMPLE',
    InstanceType: 'm5.xlarge',
    AvailabilityZone: 'eu-west-1b',
    Scope: 'Availability Zone',
    Start: new Date('2026-03-01T10:00:00.000Z'),
    End: new Date('2027-03-01T10:00:00.000Z'),
    Duration: 31_536_000,
    FixedPrice: 1007,
    UsagePrice: 0,
    InstanceCount: 3,
    ProductDescription: 'Windows (Amazon VPC)',
    State: 'active',
    InstanceTenancy: 'dedicated',
    CurrencyCode: 'USD',
    OfferingClass: 'convertible',
    OfferingType: 'Partial Upfront',
    RecurringCharges: [{ Amount: 0.115, Frequency: 'Hourly' }],
  };

  it('maps every attribute: platform, tenancy, zone, class, payment, prices, count and term', () => {
    // Act
    const mapped = ec2ReservationCommitment(reservation, where);

    // Assess
    expect(mapped).toEqual({
      id: deterministicUuid('aws-reserved-instances', '444455556666', 'e5a2ff3b-7d14-494f-90af-0b5d0EXAMPLE'),
      provider: 'aws',
      accountId: '444455556666',
      region: 'eu-west-1',
      contractType: 'convertible_ris',
      instanceType: 'm5.xlarge',
      quantity: 3,
      hourlyCommitment: 0,
      upfrontCost: 1007,
      recurringCost: 0.115,
      start: '2026-03-01T10:00:00Z',
      end: '2027-03-01T10:00:00Z',
      lockinEnd: '2027-03-01T10:00:00Z',
      operatingSystem: 'Windows',
      tenancy: 'Dedicated',
      paymentOption: 'Partial Upfront',
      availabilityZone: 'eu-west-1b',
    });
  });

  it('is regional and standard by its scope and class, ends after its Duration when End is absent, and adds the usage price', () => {
    // Prepare: 94,608,000 s = 3 x 365 days = 26,280 h after 2026-03-01T10:00Z is 2029-02-28T10:00Z.
    const regional = {
      ...reservation,
      Scope: 'Region',
      OfferingClass: 'standard',
      End: undefined,
      Duration: 94_608_000,
      UsagePrice: 0.01,
      ProductDescription: 'Linux/UNIX',
      InstanceTenancy: 'default',
    };

    // Act
    const mapped = ec2ReservationCommitment(regional, where);

    // Assess: recurring 0.115 + usage price 0.01 = 0.125 per hour.
    expect(mapped).toMatchObject({
      contractType: 'standard_ris',
      end: '2029-02-28T10:00:00Z',
      recurringCost: 0.125,
      operatingSystem: 'Linux',
      tenancy: 'Shared',
    });
    expect(mapped).not.toHaveProperty('availabilityZone');
  });

  it('leaves out a reservation that is not active', () => {
    expect(ec2ReservationCommitment({ ...reservation, State: 'retired' }, where)).toBeNull();
    expect(ec2ReservationCommitment({ ...reservation, State: 'payment-pending' }, where)).toBeNull();
  });

  it('names the platforms as usage does', () => {
    expect(ec2Platform('Linux/UNIX (Amazon VPC)')).toBe('Linux');
    expect(ec2Platform('Red Hat Enterprise Linux')).toBe('RHEL');
    expect(ec2Platform('SUSE Linux')).toBe('SUSE');
    expect(ec2Platform('Windows with SQL Server Standard')).toBe('Windows with SQL Std');
    expect(ec2Platform('Ubuntu Pro')).toBe('Ubuntu Pro');
  });
});

describe('an RDS reservation', () => {
  const reservation = {
    ReservedDBInstanceId: 'customerSpecifiedID',
    ReservedDBInstancesOfferingId: '649fd0c8-cf6d-47a0-bfa6-060f8e75e95f',
    DBInstanceClass: 'db.r5.large',
    StartTime: new Date('2026-01-15T00:00:00.000Z'),
    Duration: 31_536_000,
    FixedPrice: 0,
    UsagePrice: 0,
    CurrencyCode: 'USD',
    DBInstanceCount: 2,
    ProductDescription: 'postgresql',
    OfferingType: 'No Upfront',
    MultiAZ: true,
    State: 'active',
    RecurringCharges: [{ RecurringChargeAmount: 0.198, RecurringChargeFrequency: 'Hourly' }],
  };

  it('maps engine, Multi-AZ, payment, prices, count and a term of Duration', () => {
    // Act
    const mapped = rdsReservationCommitment(reservation, where);

    // Assess: 31,536,000 s = 365 days after 2026-01-15 is 2027-01-15.
    expect(mapped).toEqual({
      id: deterministicUuid('aws-reserved-db-instances', '444455556666', 'customerSpecifiedID'),
      provider: 'aws',
      accountId: '444455556666',
      region: 'eu-west-1',
      contractType: 'db_ris',
      instanceType: 'db.r5.large',
      quantity: 2,
      hourlyCommitment: 0,
      upfrontCost: 0,
      recurringCost: 0.198,
      start: '2026-01-15T00:00:00Z',
      end: '2027-01-15T00:00:00Z',
      lockinEnd: '2027-01-15T00:00:00Z',
      operatingSystem: 'PostgreSQL',
      deploymentOption: 'Multi-AZ',
      paymentOption: 'No Upfront',
    });
  });

  it('is Single-AZ without MultiAZ, and left out unless active', () => {
    expect(rdsReservationCommitment({ ...reservation, MultiAZ: false }, where)?.deploymentOption).toBe(
      'Single-AZ',
    );
    expect(rdsReservationCommitment({ ...reservation, State: 'retired' }, where)).toBeNull();
  });

  it('names the engines as usage does, licence suffixes dropped', () => {
    expect(rdsEngine('mysql')).toBe('MySQL');
    expect(rdsEngine('mariadb')).toBe('MariaDB');
    expect(rdsEngine('aurora-postgresql')).toBe('Aurora PostgreSQL');
    expect(rdsEngine('oracle-se2(li)')).toBe('Oracle');
    expect(rdsEngine('sqlserver-web(li)')).toBe('SQL Server');
  });
});

describe('a savings plan', () => {
  const plan = {
    savingsPlanId: 'sp-0123abcd',
    savingsPlanArn: 'arn:aws:savingsplans::444455556666:savingsplan/sp-0123abcd',
    start: '2026-02-01T00:00:00.000Z',
    end: '2029-02-01T00:00:00.000Z',
    state: 'active',
    region: 'eu-west-1',
    ec2InstanceFamily: 'm5',
    savingsPlanType: 'EC2Instance',
    paymentOption: 'Partial Upfront',
    currency: 'USD',
    commitment: '2.5',
    upfrontPaymentAmount: '32850.0',
    recurringPaymentAmount: '1.25',
    termDurationInSeconds: 94_608_000,
  };

  it('maps an EC2 Instance plan: its region, family, $/h, payment option and amounts', () => {
    // Act
    const mapped = savingsPlanCommitment(plan, '444455556666');

    // Assess: half of 2.5 $/h x 26,280 h = 32,850 up front, 1.25 $/h recurring, as the API answers.
    expect(mapped).toEqual({
      id: deterministicUuid('aws-savings-plan', '444455556666', 'sp-0123abcd'),
      provider: 'aws',
      accountId: '444455556666',
      region: 'eu-west-1',
      contractType: 'instance_plans',
      instanceType: null,
      quantity: 0,
      hourlyCommitment: 2.5,
      upfrontCost: 32_850,
      recurringCost: 1.25,
      start: '2026-02-01T00:00:00Z',
      end: '2029-02-01T00:00:00Z',
      lockinEnd: '2029-02-01T00:00:00Z',
      instanceFamily: 'm5',
      paymentOption: 'Partial Upfront',
    });
  });

  it('maps a Compute plan to every region, and leaves out other types and inactive plans', () => {
    // Prepare
    const compute = { ...plan, savingsPlanType: 'Compute', region: '', ec2InstanceFamily: '' };

    // Act and Assess
    const mapped = savingsPlanCommitment(compute, '444455556666');
    expect(mapped).toMatchObject({ contractType: 'compute_plans', region: '' });
    expect(mapped).not.toHaveProperty('instanceFamily');
    expect(savingsPlanCommitment({ ...plan, savingsPlanType: 'SageMaker' }, '444455556666')).toBeNull();
    expect(savingsPlanCommitment({ ...plan, state: 'queued' }, '444455556666')).toBeNull();
  });
});
