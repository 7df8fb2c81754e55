import type { UsageStream } from '../../shared/domain/engine/model';

/**
 * An AWS m5.large Linux instance in us-east-1 at its on-demand price, with the hourly usage given;
 * `changes` describes any other resource. The engine's own tests use `test/unit/engine/builders.ts`
 * (exactly matched Windows streams at round prices, for hand-worked figures).
 */
export function m5LargeStream(
  resourceId: string,
  usage: ArrayLike<number>,
  changes: Partial<Omit<UsageStream, 'usage'>> = {},
): UsageStream {
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
    usage: Float64Array.from(usage),
  };
}
