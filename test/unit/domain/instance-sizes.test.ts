import { describe, expect, it } from 'vitest';
import { validateAzureFlexibility } from '../../../shared/domain/catalog/catalog-validation';
import azureFlexibilityData from '../../../shared/domain/catalog/data/azure-instance-size-flexibility.json' with {
  type: 'json',
};
import { familyCategory } from '../../../shared/domain/engine/shapes/instance-family';
import {
  awsNormalizationFactor,
  azureFlexibilityGroup,
  azureFlexibilitySource,
  parseAwsInstanceType,
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

describe('Azure instance size flexibility', () => {
  // Known answers: Azure's published table (https://aka.ms/isf), not the digits of the size name.
  it('counts Standard_D3_v2 for its 4 vCPUs in the Dv2 group, not for the 3 in its name', () => {
    expect(azureFlexibilityGroup('Standard_D3_v2')).toEqual({ family: 'Dv2', units: 4 });
    expect(azureFlexibilityGroup('Standard_D1_v2')).toEqual({ family: 'Dv2', units: 1 });
  });

  it('puts Standard_D11_v2 in the memory-optimized Dv2 High Memory group, apart from Dv2', () => {
    expect(azureFlexibilityGroup('Standard_D11_v2')).toEqual({ family: 'Dv2 High Memory', units: 2 });
    expect(azureFlexibilityGroup('Standard_D12_v2')).toEqual({ family: 'Dv2 High Memory', units: 4 });
    expect(familyCategory('azure', 'Dv2 High Memory')).toBe('Memory optimized');
  });

  it('gives the B-series burstable sizes their published groups and ratios', () => {
    // B1ms is half a B2ms in BS High Memory; B1ls, B1s and B2s share BS, whatever their letters.
    expect(azureFlexibilityGroup('Standard_B1ms')).toEqual({ family: 'BS High Memory', units: 0.5 });
    expect(azureFlexibilityGroup('Standard_B2ms')).toEqual({ family: 'BS High Memory', units: 2 });
    expect(azureFlexibilityGroup('Standard_B2s')).toEqual({ family: 'BS', units: 2 });
    expect(azureFlexibilityGroup('Standard_B1s')).toEqual({ family: 'BS', units: 0.5 });
    expect(azureFlexibilityGroup('Standard_B1ls')).toEqual({ family: 'BS', units: 0.25 });
  });

  it('places constrained-core sizes with their full-core size', () => {
    expect(azureFlexibilityGroup('Standard_E4-2s_v5')).toEqual({ family: 'Esv5', units: 4 });
    expect(azureFlexibilityGroup('Standard_D4s_v5')).toEqual({ family: 'Dsv5', units: 4 });
  });

  it('leaves a size the table does not list to exact matching, never a guess from its name', () => {
    expect(azureFlexibilityGroup('Standard_D4s_v9')).toBeNull();
    expect(azureFlexibilityGroup('Standard_X7')).toBeNull();
    expect(azureFlexibilityGroup('n2-standard-8')).toBeNull();
  });

  it('ships a table its schema passes unchanged, so the engine may read it without the schema', () => {
    // Act
    const validated = validateAzureFlexibility('azure-instance-size-flexibility.json', azureFlexibilityData);

    // Assess
    expect(validated).toEqual(azureFlexibilityData);
  });

  it('names where the table comes from', () => {
    expect(azureFlexibilitySource()).toContain('https://aka.ms/isf');
  });
});
