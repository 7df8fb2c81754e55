import { Duration } from 'aws-cdk-lib';

/**
 * Settings of the deployed catalog refresh (docs/catalog.md, Deployed refresh; docs/deploy.md).
 */

/** Weekly, Mondays at 04:00 UTC: the providers publish price changes a few times a month. */
export const defaultCatalogRefreshSchedule = 'cron(0 4 ? * MON *)';

/**
 * A run reads every region's EC2 and RDS offer files as they stream in (hundreds of megabytes
 * each) and holds a region's Savings Plans file and its offers: Lambda's longest timeout, and
 * the memory (and with it the CPU) the usage sync gets for the same kind of reading.
 */
export const catalogRefreshTimeout = Duration.minutes(15);
export const catalogRefreshMemorySize = 3008;

/** Lambda's tries again after a failed run, before the event goes to the dead-letter queue. */
export const catalogRefreshRetryAttempts = 2;

/** Why `regions` is not a list of region names (AWS's `us-east-1`, Azure's `eastus`); null when it is. */
export function catalogRefreshRegionsProblem(regions: readonly string[]): string | null {
  if (regions.length === 0) return 'must name at least one region';
  const bad = regions.find((region) => !/^[a-z][a-z0-9-]*[a-z0-9]$/.test(region));
  return bad === undefined
    ? null
    : `must be region names such as us-east-1 or westeurope, comma-separated; got ${bad}`;
}
