import type { Offer, UsageStream } from '../engine/shapes/model';
import { azureFlexibilityGroup, parseAwsInstanceType } from '../instance-sizes';

/**
 * The usage no offer of the catalog can cover (docs/plans-api.md, Usage without an offer): a
 * resource whose instance type, in its region, with its platform and tenancy, no reservation
 * names (exactly or by its size-flexible family) and no savings plan rate matches. Its hours stay
 * on demand in every plan; listed, they explain a plan that saves nothing.
 */

export interface UsageWithoutOffer {
  readonly provider: string;
  readonly region: string;
  readonly instanceType: string;
  readonly operatingSystem: string;
  readonly tenancy: string;
  /** Resources of that description. */
  readonly resources: number;
  /** Instance-hours used over the window. */
  readonly hours: number;
  /** What those hours cost on demand, at the resources' on-demand prices. */
  readonly ondemandCost: number;
}

/** The size-flexible family an instance type counts in, as the catalog names families. */
function familyOf(provider: string, instanceType: string): string | undefined {
  if (provider === 'aws') return parseAwsInstanceType(instanceType)?.family;
  if (provider === 'azure') return azureFlexibilityGroup(instanceType)?.family;
  return undefined;
}

/** Whether an offer could cover the stream's hours. */
export function offerCovers(offer: Offer, stream: UsageStream): boolean {
  const { scope } = offer;
  if (offer.provider !== stream.provider) return false;
  const sameKind = (os: string | undefined, tenancy: string | undefined) =>
    (os === undefined || os === stream.operatingSystem) &&
    (tenancy === undefined || tenancy === stream.tenancy);
  switch (scope.kind) {
    case 'instance':
      return (
        scope.region === stream.region &&
        scope.instanceType === stream.instanceType &&
        sameKind(scope.operatingSystem, scope.tenancy)
      );
    case 'family':
      // Azure's size-flexible reservations ignore the platform and tenancy (docs/plan-engine.md).
      return (
        scope.region === stream.region &&
        scope.family === familyOf(stream.provider, stream.instanceType) &&
        (stream.provider === 'azure' || sameKind(scope.operatingSystem, scope.tenancy))
      );
    case 'spend':
      return scope.rates.some(
        (rate) =>
          (rate.region === undefined || rate.region === stream.region) &&
          (rate.family === undefined || rate.family === familyOf(stream.provider, stream.instanceType)) &&
          (rate.instanceType === undefined || rate.instanceType === stream.instanceType) &&
          sameKind(rate.operatingSystem, rate.tenancy),
      );
  }
}

/** The streams no offer covers, summed by description, largest on-demand cost first. */
export function usageWithoutOffer(
  streams: readonly UsageStream[],
  offers: readonly Offer[],
): UsageWithoutOffer[] {
  const byDescription = new Map<string, UsageWithoutOffer>();
  for (const stream of streams) {
    if (offers.some((offer) => offerCovers(offer, stream))) continue;
    let hours = 0;
    for (const units of stream.usage) hours += units;
    if (hours === 0) continue;
    const { provider, region, instanceType, operatingSystem, tenancy } = stream;
    const key = [provider, region, instanceType, operatingSystem, tenancy].join('\u0000');
    const before = byDescription.get(key);
    byDescription.set(key, {
      provider,
      region,
      instanceType,
      operatingSystem,
      tenancy,
      resources: (before?.resources ?? 0) + 1,
      hours: (before?.hours ?? 0) + hours,
      ondemandCost: (before?.ondemandCost ?? 0) + hours * stream.ondemandPrice,
    });
  }
  return [...byDescription.values()].sort((a, b) => b.ondemandCost - a.ondemandCost);
}
