import { describe, expect, it } from 'vitest';
import {
  awsNormalizationFactor,
  parseAwsInstanceType,
  parseAzureVmSize,
} from '../../../shared/domain/instance-sizes';

describe('AWS normalization factors', () => {
  it.each([
    ['nano', 0.25],
    ['micro', 0.5],
    ['small', 1],
    ['medium', 2],
    ['large', 4],
    ['xlarge', 8],
    ['2xlarge', 16],
    ['32xlarge', 256],
  ])('counts %s as %d units', (size, factor) => {
    expect(awsNormalizationFactor(size)).toBe(factor);
  });

  it.each(['metal', 'metal-24xl', '0xlarge', 'xxlarge', 'Large', ''])('does not parse %j', (size) => {
    expect(awsNormalizationFactor(size)).toBeNull();
  });

  it('splits EC2 and RDS instance types into family and units', () => {
    expect(parseAwsInstanceType('m5.xlarge')).toEqual({ family: 'm5', units: 8 });
    expect(parseAwsInstanceType('x2iedn.32xlarge')).toEqual({ family: 'x2iedn', units: 256 });
    expect(parseAwsInstanceType('db.r5.large')).toEqual({ family: 'db.r5', units: 4 });
    expect(parseAwsInstanceType('m5.metal')).toBeNull();
    expect(parseAwsInstanceType('m5')).toBeNull();
  });
});

describe('Azure VM sizes', () => {
  it('reads the series and vCPU count from the size name', () => {
    expect(parseAzureVmSize('Standard_D4s_v5')).toEqual({ family: 'Dsv5', units: 4 });
    expect(parseAzureVmSize('Standard_E16as_v5')).toEqual({ family: 'Easv5', units: 16 });
    expect(parseAzureVmSize('Standard_B2ms')).toEqual({ family: 'Bms', units: 2 });
  });

  it('leaves constrained-core and unknown names to exact matching', () => {
    expect(parseAzureVmSize('Standard_E4-2s_v5')).toBeNull();
    expect(parseAzureVmSize('n2-standard-8')).toBeNull();
  });
});
