/**
 * Coverage groups: the sets of streams one reservation covers, and the unit it counts them in.
 *
 * - AWS regional Linux/Shared-tenancy EC2 usage is size flexible: it groups by (region, family) in
 *   normalization units (m5.large = 4, m5.2xlarge = 16) and is covered by `family` offers.
 * - AWS RDS usage of MySQL, PostgreSQL and MariaDB is size flexible the same way: it groups by
 *   (region, family, engine) in normalization units (db.m5.large = 4, twice that Multi-AZ) and is
 *   covered by `family` offers of its engine. Other engines (Oracle, SQL Server) are matched
 *   exactly, Multi-AZ apart from Single-AZ.
 * - Azure VMs of a size Azure's flexibility table lists group by (region, flexibility group) in its
 *   ratios (Standard_D4s_v5 = 4 of Dsv5) and are covered by Azure `family` offers, whatever their
 *   OS (Azure reservations cover compute only).
 * - Everything else groups by exact (region, instance type, OS, tenancy) in instances and is
 *   covered by `instance` offers.
 * A group spans the streams of one sharing key (sharingKey): every account of the org under
 * `organization` sharing, one account under `account` sharing. Every stream belongs to exactly one
 * group, so no usage can be reserved twice.
 */
import { azureFlexibilityGroup, parseAwsInstanceType, type SizedInstance } from '../../instance-sizes';
import type { CommitmentSharing, DeploymentOption, Offer, Provider, UsageStream } from '../shapes/model';
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

/** RDS engines whose reserved DB instances are size flexible within their family (docs/plan-engine.md). */
export const SIZE_FLEXIBLE_RDS_ENGINES: readonly string[] = ['MySQL', 'PostgreSQL', 'MariaDB'];

/**
 * Single-AZ units per unit of a database's usage: a Multi-AZ RDS instance runs a standby too, and
 * needs twice the reserved units of a Single-AZ one of its size (1 for everything else).
 */
export function deploymentFactor(service: string, deploymentOption: DeploymentOption | undefined): number {
  return service === 'AmazonRDS' && deploymentOption === 'Multi-AZ' ? 2 : 1;
}

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

export function familyScopeKey(
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

/**
 * Exactly matched usage: one type in one region, OS and tenancy; a Multi-AZ database apart from the
 * Single-AZ ones (the catalog's exact offers, like its family ones, are Single-AZ).
 */
export function instanceScopeKey(
  provider: Provider,
  region: string,
  type: string,
  os: string,
  tenancy: string,
  deploymentOption: DeploymentOption = 'Single-AZ',
): string {
  const key = joinKey('instance', provider, region, type, os, tenancy);
  return deploymentOption === 'Multi-AZ' ? joinKey(key, deploymentOption) : key;
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
  /** The smallest size a member's kind can be reserved in, in group units. */
  step: number;
}

/** A kind's group scope (shared with the other sizes of its family) and its units in that group. */
interface KindPlace {
  readonly scope: GroupScope;
  readonly units: number;
  /** Units of the kind's size (a Multi-AZ database's size is bought Single-AZ: half its units). */
  readonly sizeUnits: number;
}

function kindPlace(sample: UsageStream, scopes: Map<string, GroupScope>): KindPlace {
  const sized = sizeFlexibleFamily(sample);
  const { provider, region, operatingSystem, tenancy, deploymentOption } = sample;
  // Size-flexible databases count a Multi-AZ deployment as twice its size's units; exactly matched
  // ones are a group of their own.
  const scopeKey = sized
    ? familyScopeKey(provider, region, sized.family, operatingSystem, tenancy)
    : instanceScopeKey(provider, region, sample.instanceType, operatingSystem, tenancy, deploymentOption);
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
  const sizeUnits = sized ? sized.units : 1;
  return { scope, units: sizeUnits * deploymentFactor(sample.service, deploymentOption), sizeUnits };
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
    const { scope, units, sizeUnits } = places[kinds.kindOf[index] as number] as KindPlace;
    const key = sharingKey(stream.accountId, sharing);
    let draft = scope.bySharing.get(key);
    if (!draft) {
      draft = { scope, sharingKey: key, stream, members: [], weights: [], step: sizeUnits };
      scope.bySharing.set(key, draft);
      drafts.push(draft);
    }
    draft.members.push(index);
    draft.weights.push(units);
    draft.step = Math.min(draft.step, sizeUnits);
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
      step: draft.scope.kind === 'family' ? draft.step : 1,
    }));
}

/** Lookups of groups by key and by exact (provider, sharing key, region, instance type). */
export interface GroupIndex {
  readonly byKey: ReadonlyMap<string, CoverageGroup>;
  readonly byInstanceType: ReadonlyMap<string, readonly CoverageGroup[]>;
}

export const instanceTypeKey = (provider: Provider, sharing: string, region: string, instanceType: string) =>
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
