import { describe, expect, it } from 'vitest';
import { configuredRegion, readAwsConfig } from '../../../shared/runtime/aws';
import { regionInArn } from '../../../shared/runtime/secrets-manager-secret';

describe('the region of AWS clients', () => {
  it('is the one the environment names, AWS_REGION before AWS_DEFAULT_REGION', () => {
    expect(configuredRegion({ AWS_REGION: 'eu-west-1', AWS_DEFAULT_REGION: 'us-west-2' })).toBe('eu-west-1');
    expect(configuredRegion({ AWS_DEFAULT_REGION: 'us-west-2' })).toBe('us-west-2');
  });

  it('is left to the SDK (the shared config file) when the environment names none', () => {
    expect(configuredRegion({})).toBeUndefined();
  });

  it('is required by the functions that read the table', () => {
    expect(() => readAwsConfig({ TABLE_NAME: 'service' })).toThrow('AWS_REGION is not set');
    expect(readAwsConfig({ TABLE_NAME: 'service', AWS_REGION: 'ap-south-1' }).region).toBe('ap-south-1');
  });

  it("of a secret is the one its ARN names, whatever the function's", () => {
    expect(regionInArn('arn:aws:secretsmanager:eu-central-1:123456789012:secret:azure-client-AbCdEf')).toBe(
      'eu-central-1',
    );
    expect(() => regionInArn('azure-client')).toThrow('Not an ARN with a region: azure-client');
  });
});
