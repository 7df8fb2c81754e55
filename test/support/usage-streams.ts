import type { UsageStream } from '../../shared/domain/engine/shapes/model';
import type { UsageResource } from '../../shared/domain/usage/imported-usage';

/**
 * An AWS m5.large Linux instance in us-east-1 at its on-demand price; `changes` describes any
 * other resource. The engine's own tests use `test/unit/engine/builders.ts` (exactly matched
 * Windows streams at round prices, for hand-worked figures).
 */
export function m5LargeResource(resourceId: string, changes: Partial<UsageResource> = {}): UsageResource {
  return {
    resourceId,
    provider: 'aws',
    accountId: '111111111111',
    region: 'us-east-1',
    service: 'AmazonEC2',
    instanceType: 'm5.large',
    operatingSystem: 'Linux',
    tenancy: 'Shared',
    usageType: 'running',
    usageUnit: 'Hrs',
    ondemandPrice: 0.096,
    ...changes,
  };
}

/** `m5LargeResource` with the hourly usage given. */
export function m5LargeStream(
  resourceId: string,
  usage: ArrayLike<number>,
  changes: Partial<UsageResource> = {},
): UsageStream {
  return { ...m5LargeResource(resourceId, changes), usage: Float64Array.from(usage) };
}
