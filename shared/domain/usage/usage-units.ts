import type { UsageType } from '../engine/shapes/model';

/**
 * The unit each usage type is measured in, as a UsageStream's `usageUnit` (AWS cost and usage
 * report spellings). Imported usage names its type only; the unit follows from it.
 */
export const usageUnits: Readonly<Record<UsageType, string>> = {
  running: 'Hrs',
  resource: 'Hrs',
  requests: 'Requests',
  gb_seconds: 'GB-Seconds',
  gb_hours: 'GB-Hours',
  cpu_hours: 'vCPU-Hours',
  cpu_utilization: 'vCPU-Hours',
  os_hours: 'Hrs',
  units_per_month: 'Units-Mo',
  gb_per_month: 'GB-Mo',
  provisioned_concurrency_gb_seconds: 'GB-Seconds',
  provisioned_duration_gb_seconds: 'GB-Seconds',
  unknown: 'Units',
};

export function isUsageType(value: string): value is UsageType {
  return Object.hasOwn(usageUnits, value);
}
