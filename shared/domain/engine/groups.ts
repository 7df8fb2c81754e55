/**
 * Coverage groups: the sets of streams one reservation covers, and the unit it counts them in.
 *
 * - AWS regional Linux/Shared-tenancy EC2 usage is size flexible: it groups by (account, region,
 *   family) in normalization units (m5.large = 4, m5.2xlarge = 16) and is covered by `family` offers.
 * - Azure VMs group by (account, region, series) in vCPU units (Standard_D4s_v5 = 4 of Dsv5) and are
 *   covered by Azure `family` offers, whatever their OS (Azure reservations cover compute only).
 * - Everything else groups by exact (account, region, instance type, OS, tenancy) in instances and
 *   is covered by `instance` offers.
 * Every stream belongs to exactly one group, so no usage can be reserved twice.
 */
import { parseAwsInstanceType, parseAzureVmSize, type SizedInstance } from '../instance-sizes';
import type { Offer, Provider, UsageStream } from './model';

export type GroupKind = 'instance' | 'family';

export interface CoverageGroup {
  /** Scope key + account: unique per group. */
  readonly key: string;
  /** What offers must cover to apply to this group (see offerScopeKey). */
  readonly scopeKey: string;
  readonly kind: GroupKind;
  readonly provider: Provider;
  readonly accountId: string;
  readonly region: string;
  /** The instance type (instance groups) or the family (family groups) the group covers. */
  readonly coveredType: string;
  /** Indices of the member streams. */
  readonly members: readonly number[];
  /** Group units per unit of each member's usage (normalization factor, vCPUs, or 1). */
  readonly weights: readonly number[];
  /** Quantities are whole multiples of this: the smallest member size (1 for exact groups). */
  readonly step: number;
}

const SEPARATOR = '\u001f';
const joinKey = (...parts: readonly string[]) => parts.join(SEPARATOR);

/** The size-flexible family a stream counts in and its units per instance; null when matched exactly. */
function sizeFlexibleFamily(stream: UsageStream): SizedInstance | null {
  switch (stream.provider) {
    case 'aws':
      return stream.service === 'AmazonEC2' &&
        stream.operatingSystem === 'Linux' &&
        stream.tenancy === 'Shared'
        ? parseAwsInstanceType(stream.instanceType)
        : null;
    case 'azure':
      return parseAzureVmSize(stream.instanceType);
    default:
      return null;
  }
}

function familyScopeKey(
  provider: Provider,
  region: string,
  family: string,
  os: string,
  tenancy: string,
): string {
  // Azure reservations ignore OS and tenancy; AWS family offers are Linux/Shared only.
  return provider === 'azure'
    ? joinKey('family', provider, region, family)
    : joinKey('family', provider, region, family, os, tenancy);
}

function instanceScopeKey(
  provider: Provider,
  region: string,
  type: string,
  os: string,
  tenancy: string,
): string {
  return joinKey('instance', provider, region, type, os, tenancy);
}

/** The scope key of a reservation offer; null for spend offers. */
export function offerScopeKey(offer: Offer): string | null {
  const scope = offer.scope;
  switch (scope.kind) {
    case 'instance':
      return instanceScopeKey(
        offer.provider,
        scope.region,
        scope.instanceType,
        scope.operatingSystem,
        scope.tenancy,
      );
    case 'family':
      return familyScopeKey(offer.provider, scope.region, scope.family, scope.operatingSystem, scope.tenancy);
    case 'spend':
      return null;
  }
}

export function groupKey(scopeKey: string, accountId: string): string {
  return joinKey(scopeKey, accountId);
}

interface GroupDraft {
  scopeKey: string;
  kind: GroupKind;
  coveredType: string;
  stream: UsageStream;
  members: number[];
  weights: number[];
}

/** Partitions streams into coverage groups, sorted by key. */
export function groupStreams(streams: readonly UsageStream[]): CoverageGroup[] {
  const drafts = new Map<string, GroupDraft>();
  streams.forEach((stream, index) => {
    const sized = sizeFlexibleFamily(stream);
    const scopeKey = sized
      ? familyScopeKey(stream.provider, stream.region, sized.family, stream.operatingSystem, stream.tenancy)
      : instanceScopeKey(
          stream.provider,
          stream.region,
          stream.instanceType,
          stream.operatingSystem,
          stream.tenancy,
        );
    const key = groupKey(scopeKey, stream.accountId);
    let draft = drafts.get(key);
    if (!draft) {
      const kind = sized ? 'family' : 'instance';
      draft = {
        scopeKey,
        kind,
        coveredType: sized?.family ?? stream.instanceType,
        stream,
        members: [],
        weights: [],
      };
      drafts.set(key, draft);
    }
    draft.members.push(index);
    draft.weights.push(sized ? sized.units : 1);
  });
  return [...drafts.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, draft]) => ({
      key,
      scopeKey: draft.scopeKey,
      kind: draft.kind,
      provider: draft.stream.provider,
      accountId: draft.stream.accountId,
      region: draft.stream.region,
      coveredType: draft.coveredType,
      members: draft.members,
      weights: draft.weights,
      step: draft.kind === 'family' ? draft.weights.reduce((least, units) => Math.min(least, units)) : 1,
    }));
}

/** Lookups of groups by key and by exact (provider, account, region, instance type). */
export interface GroupIndex {
  readonly byKey: ReadonlyMap<string, CoverageGroup>;
  readonly byInstanceType: ReadonlyMap<string, readonly CoverageGroup[]>;
}

const instanceTypeKey = (provider: Provider, accountId: string, region: string, instanceType: string) =>
  joinKey(provider, accountId, region, instanceType);

export function indexGroups(groups: readonly CoverageGroup[]): GroupIndex {
  const byInstanceType = new Map<string, CoverageGroup[]>();
  for (const group of groups) {
    if (group.kind !== 'instance') continue;
    const key = instanceTypeKey(group.provider, group.accountId, group.region, group.coveredType);
    const sameType = byInstanceType.get(key);
    if (sameType) sameType.push(group);
    else byInstanceType.set(key, [group]);
  }
  return { byKey: new Map(groups.map((group) => [group.key, group])), byInstanceType };
}

/**
 * The groups an existing reservation of `instanceType` covers in (provider, account, region):
 * its family group when the type is size flexible there, else the exact groups of that type (the
 * commitment does not record OS or tenancy, so it covers every OS and tenancy of its type).
 * Returns the groups and the units one reserved instance counts for in them.
 */
export function groupsReservedBy(
  index: GroupIndex,
  provider: Provider,
  accountId: string,
  region: string,
  instanceType: string,
): { groups: readonly CoverageGroup[]; unitsPerInstance: number } {
  const sized =
    provider === 'aws'
      ? parseAwsInstanceType(instanceType)
      : provider === 'azure'
        ? parseAzureVmSize(instanceType)
        : null;
  const family =
    sized &&
    index.byKey.get(groupKey(familyScopeKey(provider, region, sized.family, 'Linux', 'Shared'), accountId));
  if (sized && family) return { groups: [family], unitsPerInstance: sized.units };
  return {
    groups: index.byInstanceType.get(instanceTypeKey(provider, accountId, region, instanceType)) ?? [],
    unitsPerInstance: 1,
  };
}
