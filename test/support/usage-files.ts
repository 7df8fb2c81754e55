/**
 * Usage and commitment files (docs/import.md) written by tests: fleets whose hourly pattern a
 * test controls, so that the plans computed from them have figures the test can work out.
 */

export const usageHeader =
  'timestamp,provider,account_id,region,service,resource_id,instance_type,operating_system,tenancy,usage_type,units,ondemand_price';

export const commitmentHeader =
  'provider,account_id,region,contract_type,instance_type,quantity,hourly_commitment,upfront_cost,recurring_cost,start,end,lockin_end';

const HOUR_MS = 3_600_000;

/** One resource running `unitsAt(t)` instance-hours in hour t of the file (on-demand price from the catalog). */
export interface FleetResource {
  readonly provider: 'aws' | 'azure' | 'gcp';
  readonly accountId: string;
  readonly region: string;
  readonly service: string;
  readonly resourceId: string;
  readonly instanceType: string;
  readonly operatingSystem: string;
  readonly unitsAt: (hour: number) => number;
}

/** `count` resources alike but for their ids (`<prefix>-<n>`). */
export function fleet(
  count: number,
  prefix: string,
  resource: Omit<FleetResource, 'resourceId'>,
): FleetResource[] {
  return Array.from({ length: count }, (_, n) => ({ ...resource, resourceId: `${prefix}-${n + 1}` }));
}

/** Always running. */
export const alwaysOn = () => 1;

/**
 * The lines of a usage file covering `hours` hours from `start`: one row per resource and hour
 * with usage, plus a row (maybe of 0 units) for each resource at the first and last hour, so that
 * the file covers exactly those hours.
 */
export function usageLines(start: string, hours: number, resources: readonly FleetResource[]): string[] {
  const first = Date.parse(start);
  const lines = [usageHeader];
  for (const resource of resources) {
    for (let t = 0; t < hours; t++) {
      const units = resource.unitsAt(t);
      if (units === 0 && t !== 0 && t !== hours - 1) continue;
      const timestamp = new Date(first + t * HOUR_MS).toISOString().replace('.000Z', 'Z');
      lines.push(
        [
          timestamp,
          resource.provider,
          resource.accountId,
          resource.region,
          resource.service,
          resource.resourceId,
          resource.instanceType,
          resource.operatingSystem,
          'Shared',
          'running',
          units,
          '',
        ].join(','),
      );
    }
  }
  return lines;
}

/** The records an import reads of a file of these lines. */
export { recordsOf } from './csv-records';

/** A GCP n2-standard-8 VM of one project, the resource most app and e2e tests plan for. */
export const gcpN2Standard8 = {
  provider: 'gcp',
  accountId: 'acme-prod',
  region: 'us-central1',
  service: 'Compute Engine',
  instanceType: 'n2-standard-8',
  operatingSystem: 'Linux',
} as const;
