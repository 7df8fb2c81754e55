import { describe, expect, it } from 'vitest';
import { exportChecks, failedCheck } from '../../../shared/domain/onboarding/aws-checks';
import { permits } from '../../../shared/domain/onboarding/azure-checks';
import { externalIdFromUuid, isExternalId } from '../../../shared/domain/onboarding/external-id';

const hourlyParquet = {
  name: 'hourly',
  source: 'data-exports' as const,
  granularity: 'HOURLY',
  format: 'parquet',
  includesResourceIds: true,
  bucket: 'b',
  prefix: 'p',
  region: 'us-east-1',
};

describe('what an export means for the checklist', () => {
  it.each([
    [{}, ['available', 'available', 'available']],
    [{ granularity: 'DAILY' }, ['available', 'warning', 'available']],
    [{ granularity: 'MONTHLY' }, ['available', 'missing', 'available']],
    [{ format: 'csv' }, ['warning', 'available', 'available']],
    [{ includesResourceIds: false }, ['available', 'available', 'missing']],
  ])('with %j answers cur_export, cur_hourly, cur_resource_ids %j', (change, expected) => {
    // Act
    const items = exportChecks({ ...hourlyParquet, ...change }, 'hourly');

    // Assess
    expect(items.map((item) => item.status)).toEqual(expected);
  });

  it('answers every export check missing when there is no export', () => {
    expect(exportChecks(null, 'hourly').map((item) => item.status)).toEqual([
      'missing',
      'missing',
      'missing',
    ]);
  });
});

describe('a failed call', () => {
  it.each([
    ['AccessDenied', true, 'missing'],
    ['AccessDenied', false, 'unknown'],
    ['ThrottlingException', true, 'unknown'],
    ['NoSuchBucket', false, 'missing'],
    ['InternalError', true, 'unknown'],
  ])('%s (denial means missing: %s) is %s, with the provider message', (name, deniedMeansMissing, status) => {
    // Act
    const item = failedCheck(
      'cur_bucket_readable',
      's3:ListBucket',
      { name, message: 'from AWS' },
      deniedMeansMissing,
    );

    // Assess
    expect(item.status).toBe(status);
    expect(item.detail).toBe(`s3:ListBucket: ${name}: from AWS`);
  });
});

describe('Azure permissions', () => {
  it('match actions through wildcards, minus notActions', () => {
    // Assess
    expect(
      permits(
        [{ actions: ['Microsoft.Capacity/reservationOrders/*'], notActions: [] }],
        'Microsoft.Capacity/reservationOrders/write',
      ),
    ).toBe(true);
    expect(
      permits(
        [{ actions: ['*'], notActions: ['Microsoft.Capacity/*'] }],
        'Microsoft.Capacity/reservationOrders/write',
      ),
    ).toBe(false);
    expect(
      permits([{ actions: ['*/read'], notActions: [] }], 'Microsoft.Capacity/reservationOrders/write'),
    ).toBe(false);
  });
});

describe('the external id', () => {
  it('is drawn from a random UUID in a form STS accepts', () => {
    // Act
    const externalId = externalIdFromUuid('0F8FAD5B-D9CB-469F-A165-70867728950E');

    // Assess
    expect(externalId).toBe('cpo-0f8fad5bd9cb469fa16570867728950e');
    expect(isExternalId(externalId)).toBe(true);
  });
});
