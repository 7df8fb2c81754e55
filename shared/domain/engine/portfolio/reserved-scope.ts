/**
 * What an owned reservation covers (docs/plan-engine.md, What an owned commitment covers): the
 * coverage groups of its provider, sharing key and region that hold usage of its platform, tenancy,
 * engine and deployment, and the units one reserved instance counts for in them.
 *
 * - AWS EC2: a regional Linux/Shared reservation covers every size of its family (normalization
 *   units); a zonal one only its own size; any other platform or tenancy only its exact type, OS
 *   and tenancy (a Windows or Dedicated reservation covers no Linux or Shared usage).
 * - AWS RDS: a MySQL, PostgreSQL or MariaDB reservation covers its engine's family in normalization
 *   units, a Multi-AZ one twice its size's units; other engines only their exact type and
 *   deployment. A reservation of no recorded engine (files that predate the column) covers the
 *   size-flexible engines of its family.
 * - Azure: every size of its instance-size-flexibility group, whatever the OS (reservations cover
 *   the compute meter only); a size the table does not list only itself.
 * - GCP: its exact machine type.
 */
import { azureFlexibilityGroup, parseAwsInstanceType } from '../../instance-sizes';
import {
  type CoverageGroup,
  deploymentFactor,
  familyScopeKey,
  type GroupIndex,
  groupKey,
  instanceScopeKey,
  instanceTypeKey,
  SIZE_FLEXIBLE_RDS_ENGINES,
} from '../groups/groups';
import type { ExistingCommitment } from '../shapes/model';

export interface ReservedScope {
  /** The groups it covers (none: it covers nothing of this usage). */
  readonly groups: readonly CoverageGroup[];
  /** Set when it covers only this size of its groups' members (zonal AWS reservations). */
  readonly onlyType: string | null;
  /** Group units one reserved instance counts for. */
  readonly unitsPerInstance: number;
}

/** The documented defaults of an owned reservation's platform and tenancy (docs/import.md). */
export const DEFAULT_PLATFORM = 'Linux';
export const DEFAULT_TENANCY = 'Shared';

/** The scope of reservation `commitment` (instanceType set) among groups of sharing key `shared`. */
export function reservedScope(
  index: GroupIndex,
  commitment: ExistingCommitment,
  shared: string,
): ReservedScope {
  const { provider, region } = commitment;
  const instanceType = commitment.instanceType as string;
  const present = (scopeKeys: readonly string[]) =>
    scopeKeys.flatMap((scopeKey) => {
      const group = index.byKey.get(groupKey(scopeKey, shared));
      return group ? [group] : [];
    });
  const exactType = (): ReservedScope => ({
    groups: index.byInstanceType.get(instanceTypeKey(provider, shared, region, instanceType)) ?? [],
    onlyType: null,
    unitsPerInstance: 1,
  });
  switch (provider) {
    case 'azure': {
      const sized = azureFlexibilityGroup(instanceType);
      if (!sized) return exactType();
      const groups = present([familyScopeKey(provider, region, sized.family, 'Linux', 'Shared')]);
      return { groups, onlyType: null, unitsPerInstance: sized.units };
    }
    case 'aws':
      return awsReservedScope(commitment, instanceType, present);
    default:
      return exactType();
  }
}

function awsReservedScope(
  commitment: ExistingCommitment,
  instanceType: string,
  present: (scopeKeys: readonly string[]) => CoverageGroup[],
): ReservedScope {
  const { provider, region } = commitment;
  const tenancy = commitment.tenancy ?? DEFAULT_TENANCY;
  const sized = parseAwsInstanceType(instanceType);
  if (instanceType.startsWith('db.')) {
    const deployment = commitment.deploymentOption ?? 'Single-AZ';
    const engines =
      commitment.operatingSystem === undefined ? SIZE_FLEXIBLE_RDS_ENGINES : [commitment.operatingSystem];
    if (
      sized &&
      tenancy === 'Shared' &&
      engines.every((engine) => SIZE_FLEXIBLE_RDS_ENGINES.includes(engine))
    ) {
      return {
        groups: present(
          engines.map((engine) => familyScopeKey(provider, region, sized.family, engine, tenancy)),
        ),
        onlyType: null,
        unitsPerInstance: sized.units * deploymentFactor('AmazonRDS', deployment),
      };
    }
    const engine = engines[0] as string;
    return {
      groups: present([instanceScopeKey(provider, region, instanceType, engine, tenancy, deployment)]),
      onlyType: null,
      unitsPerInstance: 1,
    };
  }
  const platform = commitment.operatingSystem ?? DEFAULT_PLATFORM;
  if (sized && platform === 'Linux' && tenancy === 'Shared') {
    return {
      groups: present([familyScopeKey(provider, region, sized.family, platform, tenancy)]),
      // A zonal reservation is not size flexible: it covers its own size of the family's usage.
      onlyType: commitment.availabilityZone ? instanceType : null,
      unitsPerInstance: sized.units,
    };
  }
  return {
    groups: present([instanceScopeKey(provider, region, instanceType, platform, tenancy)]),
    onlyType: null,
    unitsPerInstance: 1,
  };
}
