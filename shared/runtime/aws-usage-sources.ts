import type { AwsUsageSources } from '../app/ports/usage-sync';
import { awsUsageSources } from '../cloud/usage-sources/aws-usage-sources';
import { loadCatalog } from '../domain/catalog/catalog';

/**
 * The customers' AWS accounts as a deployed usage sync reads them (docs/usage-sync.md): through
 * their onboarding roles, from the service's `region`, with the owned reservations described in
 * every region of the bundled catalog.
 */
export function awsUsageSourcesIn(region: string): AwsUsageSources {
  const reservationRegions = [
    ...new Set(
      loadCatalog()
        .pricedInstances('aws')
        .map((instance) => instance.region),
    ),
  ].sort();
  return awsUsageSources({ region, reservationRegions });
}
