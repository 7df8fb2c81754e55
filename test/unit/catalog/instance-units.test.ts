import { describe, expect, it } from 'vitest';
import { parseGcpMachineType, sizeInstance } from '../../../shared/domain/catalog/instance-units';

describe('instance units', () => {
  it('reads a GCP machine type as its series and shape with its vCPU count', () => {
    expect(parseGcpMachineType('n2-standard-8')).toEqual({ family: 'n2-standard', units: 8 });
    expect(parseGcpMachineType('c3-standard-22')).toEqual({ family: 'c3-standard', units: 22 });
    expect(parseGcpMachineType('e2-micro')).toBeNull();
    expect(parseGcpMachineType('n2-standard-0')).toBeNull();
  });

  it('sizes instances with each provider own rules', () => {
    expect(sizeInstance('aws', 'm5.2xlarge')).toEqual({ family: 'm5', units: 16 });
    expect(sizeInstance('azure', 'Standard_F8s_v2')).toEqual({ family: 'FSv2', units: 8 });
    expect(sizeInstance('gcp', 'e2-standard-4')).toEqual({ family: 'e2-standard', units: 4 });
    expect(sizeInstance('gcp', 'm5.2xlarge')).toBeNull();
  });
});
