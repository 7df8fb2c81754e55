import type { Provider } from '../engine/shapes/model';
import { azureFlexibilityGroup, parseAwsInstanceType, type SizedInstance } from '../instance-sizes';

/**
 * `n2-standard-8` -> { family: 'n2-standard', units: 8 }. A predefined Compute Engine machine type
 * names its vCPU count last; prices within a series and shape scale with it.
 */
export function parseGcpMachineType(machineType: string): SizedInstance | null {
  const match = /^([a-z][a-z0-9]*-[a-z]+)-([1-9]\d*)$/.exec(machineType);
  if (!match?.[1] || !match[2]) return null;
  return { family: match[1], units: Number(match[2]) };
}

/**
 * The family and units of an instance type as the catalog prices it: AWS normalization units,
 * Azure instance size flexibility ratios, GCP vCPUs. Null when the name is not understood.
 */
export function sizeInstance(provider: Provider, instanceType: string): SizedInstance | null {
  switch (provider) {
    case 'aws':
      return parseAwsInstanceType(instanceType);
    case 'azure':
      return azureFlexibilityGroup(instanceType);
    case 'gcp':
      return parseGcpMachineType(instanceType);
  }
}
