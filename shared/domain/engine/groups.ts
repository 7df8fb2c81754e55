/**
 * Coverage groups: the sets of streams one reservation covers, and the unit it counts them in.
 *
 * - AWS regional Linux/Shared-tenancy EC2 usage is size flexible: it groups by (region, family) in
 *   normalization units (m5.large = 4, m5.2xlarge = 16) and is covered by `family` offers.
 * - AWS RDS usage of MySQL, PostgreSQL and MariaDB is size flexible the same way: it groups by
 *   (region, family, engine) in normalization units (db.m5.large = 4) and is covered by `family`
 *   offers of its engine. Other engines (Oracle, SQL Server) are matched exactly.
 * - Azure VMs of a size Azure's flexibility table lists group by (region, flexibility group) in its
 *   ratios (Standard_D4s_v5 = 4 of Dsv5) and are covered by Azure `family` offers, whatever their
 *   OS (Azure reservations cover compute only).
 * - Everything else groups by exact (region, instance type, OS, tenancy) in instances and is
 *   covered by `instance` offers.
 * A group spans the streams of one sharing key (sharingKey): every account of the org under
 * `organization` sharing, one account under `account` sharing. Every stream belongs to exactly one
 * group, so no usage can be reserved twice.
 */
import { azureFlexibilityGroup, parseAwsInstanceType, type SizedInstance } from '../instance-sizes';
import type { CommitmentSharing, Offer, Provider, UsageStream } from './model';
import { type StreamKinds, streamKinds } from './stream-kinds';

export type GroupKind = 'instance' | 'family';

export interface CoverageGroup {
  /** Scope key + sharing key: unique per group. */
  readonly key: string;
  /** What offers must cover to apply to this group (see offerScopeKey). */
  readonly scopeKey: string;
  readonly kind: GroupKind;
  readonly provider: Provider;
  /** Whose commitments cover the group (sharingKey): the org's, or one account's. */
  readonly sharingKey: string;
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

/** The sharing key of the whole org: no account's own key (those all start with `account`). */
export const ORGANIZATION_WIDE = 'organization';

/**
 * Whose commitments can cover an account's usage: the org's (`organization` sharing) or the
 * account's own. Groups, savings-plan pools and existing commitments are keyed by it.
 */
export function sharingKey(accountId: string, sharing: CommitmentSharing): string {
  return sharing === 'account' ? joinKey('account', accountId) : ORGANIZATION_WIDE;
}

/** RDS engines whose reserved DB instances are size flexible within their family (DESIGN §7). */
const SIZE_FLEXIBLE_RDS_ENGINES: readonly string[] = ['MySQL', 'PostgreSQL', 'MariaDB'];

const isSizeFlexibleRds = (stream: UsageStream) =>
  stream.service === 'AmazonRDS' &&
  stream.tenancy === 'Shared' &&
  SIZE_FLEXIBLE_RDS_ENGINES.includes(stream.operatingSystem);

/** The size-flexible family a stream counts in and its units per instance; null when matched exactly. */
function sizeFlexibleFamily(stream: UsageStream): SizedInstance | null {
  switch (stream.provider) {
    case 'aws':
      return (stream.service === 'AmazonEC2' &&
        stream.operatingSystem === 'Linux' &&
        stream.tenancy === 'Shared') ||
        isSizeFlexibleRds(stream)
        ? parseAwsInstanceType(stream.instanceType)
        : null;
    case 'azure':
      return azureFlexibilityGroup(stream.instanceType);
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
  // Azure reservations ignore OS and tenancy; AWS family offers name theirs (Linux, or the RDS engine).
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

export function groupKey(scopeKey: string, sharing: string): string {
  return joinKey(scopeKey, sharing);
}

/** What a stream's group depends on besides its sharing key: the same for every stream of a kind. */
interface GroupScope {
  readonly scopeKey: string;
  readonly kind: GroupKind;
  readonly coveredType: string;
  /** The groups of this scope so far, by sharing key. */
  readonly bySharing: Map<string, GroupDraft>;
}

interface GroupDraft {
  readonly scope: GroupScope;
  readonly sharingKey: string;
  readonly stream: UsageStream;
  readonly members: number[];
  readonly weights: number[];
}

/** A kind's group scope (shared with the other sizes of its family) and its units in that group. */
interface KindPlace {
  readonly scope: GroupScope;
  readonly units: number;
}

function kindPlace(sample: UsageStream, scopes: Map<string, GroupScope>): KindPlace {
  const sized = sizeFlexibleFamily(sample);
  const { provider, region, operatingSystem, tenancy } = sample;
  const scopeKey = sized
    ? familyScopeKey(provider, region, sized.family, operatingSystem, tenancy)
    : instanceScopeKey(provider, region, sample.instanceType, operatingSystem, tenancy);
  let scope = scopes.get(scopeKey);
  if (!scope) {
    scope = {
      scopeKey,
      kind: sized ? 'family' : 'instance',
      coveredType: sized?.family ?? sample.instanceType,
      bySharing: new Map(),
    };
    scopes.set(scopeKey, scope);
  }
  return { scope, units: sized ? sized.units : 1 };
}

/**
 * Partitions streams into coverage groups, sorted by key. A group's scope is worked out once per
 * stream kind (`kinds`: of the same streams), and a stream is placed by its kind and sharing key.
 */
export function groupStreams(
  streams: readonly UsageStream[],
  sharing: CommitmentSharing = 'organization',
  kinds: StreamKinds = streamKinds(streams),
): CoverageGroup[] {
  const scopes = new Map<string, GroupScope>();
  const places = kinds.samples.map((sample) => kindPlace(sample, scopes));
  const drafts: GroupDraft[] = [];
  for (let index = 0; index < streams.length; index++) {
    const stream = streams[index] as UsageStream;
    const { scope, units } = places[kinds.kindOf[index] as number] as KindPlace;
    const key = sharingKey(stream.accountId, sharing);
    let draft = scope.bySharing.get(key);
    if (!draft) {
      draft = { scope, sharingKey: key, stream, members: [], weights: [] };
      scope.bySharing.set(key, draft);
      drafts.push(draft);
    }
    draft.members.push(index);
    draft.weights.push(units);
  }
  return drafts
    .map((draft) => ({ key: groupKey(draft.scope.scopeKey, draft.sharingKey), draft }))
    .sort(({ key: a }, { key: b }) => (a < b ? -1 : a > b ? 1 : 0))
    .map(({ key, draft }) => ({
      key,
      scopeKey: draft.scope.scopeKey,
      kind: draft.scope.kind,
      provider: draft.stream.provider,
      sharingKey: draft.sharingKey,
      region: draft.stream.region,
      coveredType: draft.scope.coveredType,
      members: draft.members,
      weights: draft.weights,
      step:
        draft.scope.kind === 'family' ? draft.weights.reduce((least, units) => Math.min(least, units)) : 1,
    }));
}

/** Lookups of groups by key and by exact (provider, sharing key, region, instance type). */
export interface GroupIndex {
  readonly byKey: ReadonlyMap<string, CoverageGroup>;
  readonly byInstanceType: ReadonlyMap<string, readonly CoverageGroup[]>;
}

const instanceTypeKey = (provider: Provider, sharing: string, region: string, instanceType: string) =>
  joinKey(provider, sharing, region, instanceType);

export function indexGroups(groups: readonly CoverageGroup[]): GroupIndex {
  const byInstanceType = new Map<string, CoverageGroup[]>();
  for (const group of groups) {
    if (group.kind !== 'instance') continue;
    const key = instanceTypeKey(group.provider, group.sharingKey, group.region, group.coveredType);
    const sameType = byInstanceType.get(key);
    if (sameType) sameType.push(group);
    else byInstanceType.set(key, [group]);
  }
  return { byKey: new Map(groups.map((group) => [group.key, group])), byInstanceType };
}

/**
 * The family scopes an existing reservation of a size-flexible `family` may cover: AWS EC2 Linux
 * (a regional Linux/Shared reservation); for an RDS family every size-flexible engine (the
 * commitment does not record its engine); Azure the series.
 */
function reservedFamilyScopes(provider: Provider, region: string, family: string): string[] {
  if (provider === 'azure') return [familyScopeKey(provider, region, family, 'Linux', 'Shared')];
  if (family.startsWith('db.')) {
    return SIZE_FLEXIBLE_RDS_ENGINES.map((engine) =>
      familyScopeKey(provider, region, family, engine, 'Shared'),
    );
  }
  return [familyScopeKey(provider, region, family, 'Linux', 'Shared')];
}

/**
 * The groups an existing reservation of `instanceType` covers in (provider, sharing key, region):
 * its family groups when the type is size flexible there, else the exact groups of that type (the
 * commitment does not record OS or tenancy, so it covers every OS and tenancy of its type).
 * Returns the groups and the units one reserved instance counts for in them.
 */
export function groupsReservedBy(
  index: GroupIndex,
  provider: Provider,
  sharing: string,
  region: string,
  instanceType: string,
): { groups: readonly CoverageGroup[]; unitsPerInstance: number } {
  const sized =
    provider === 'aws'
      ? parseAwsInstanceType(instanceType)
      : provider === 'azure'
        ? azureFlexibilityGroup(instanceType)
        : null;
  const families = sized
    ? reservedFamilyScopes(provider, region, sized.family).flatMap((scope) => {
        const group = index.byKey.get(groupKey(scope, sharing));
        return group ? [group] : [];
      })
    : [];
  if (sized && families.length > 0) return { groups: families, unitsPerInstance: sized.units };
  return {
    groups: index.byInstanceType.get(instanceTypeKey(provider, sharing, region, instanceType)) ?? [],
    unitsPerInstance: 1,
  };
}
