/**
 * The spec's Resource record of a usage stream: every field derived from the stream (and the dates
 * of the window it is reported for). Fields the usage does not carry (availability zone, engine
 * version) are empty strings rather than invented values.
 */
import { deterministicUuid, deterministicUuids } from '../../deterministic-id';
import { azureFlexibilityGroup, parseAwsInstanceType } from '../../instance-sizes';
import { deploymentFactor } from '../groups/groups';
import { familyCategory, instanceFamily } from './instance-family';
import type { Provider, UsageStream } from './model';
import type { Resource } from './plan-shapes';
import { fullRegionName } from './region-names';

export interface ResourceDates {
  /** First and last day of the reported range. */
  readonly usageStart: string;
  readonly usageEnd: string;
  /** First and last day with usage in the window. */
  readonly firstSeen: string;
  readonly lastSeen: string;
  /** Day the on-demand prices were read for: the window's first day. */
  readonly priceDate: string;
}

const LOCATION_TYPES: Readonly<Record<Provider, string>> = {
  aws: 'AWS Region',
  azure: 'Azure Region',
  gcp: 'GCP Region',
};

/** Stable uuid of a resource within an org. */
export function resourceUuid(orgId: string, stream: UsageStream): string {
  return deterministicUuid('resource', orgId, stream.provider, stream.resourceId);
}

function sizeFactor(stream: UsageStream): string {
  const sized =
    stream.provider === 'aws'
      ? parseAwsInstanceType(stream.instanceType)
      : stream.provider === 'azure'
        ? azureFlexibilityGroup(stream.instanceType)
        : null;
  // A Multi-AZ database counts its standby: twice its size's units, as its coverage does.
  return sized ? String(sized.units * deploymentFactor(stream.service, stream.deploymentOption)) : '';
}

/** The last segment of an ARN or resource path (`.../instance/i-0abc` -> `i-0abc`); the id itself when it has none. */
function shortName(resourceId: string): string {
  const segments = resourceId.split(/[/:]/).filter((segment) => segment !== '');
  return segments.at(-1) ?? resourceId;
}

/** The fields every stream of one SKU (provider, service, region, type, OS, tenancy, usage) shares. */
type SkuFields = Omit<
  Resource,
  | 'id'
  | 'resource_id'
  | 'provider_resource_id'
  | 'usage_start'
  | 'usage_end'
  | 'tags'
  | 'created_at'
  | 'updated_at'
  | 'has_ondemand_terms'
  | 'is_reservable'
  | 'management_account_id'
  | 'owner_account_id'
  | 'name'
  | 'resource_group'
  | 'instance_id'
  | 'publication_date'
>;

function skuFields(stream: UsageStream): SkuFields {
  const family = instanceFamily(stream.provider, stream.instanceType);
  const regionName = fullRegionName(stream.provider, stream.region);
  const os = stream.operatingSystem;
  return {
    provider: stream.provider,
    // Usage streams are billed at on-demand prices: spot usage is never reserved.
    is_spot: false,
    vpc_networking_support: stream.provider === 'aws' && stream.service === 'AmazonEC2',
    sku_title: `${stream.instanceType} ${os} ${stream.tenancy}`,
    sku_name: stream.instanceType,
    availability_zone: '',
    cache_engine: /elasticache|redis|memcache/i.test(stream.service) ? os : '',
    database_engine: /rds|sql|database|cosmos|aurora/i.test(stream.service) ? os : '',
    description: `${stream.service} ${stream.instanceType} (${os}, ${stream.tenancy}) in ${regionName}`,
    family: familyCategory(stream.provider, family),
    full_region_name: regionName,
    instance_type: stream.instanceType,
    instance_type_family: family,
    license_model: /windows|sql server|rhel|red hat|suse/i.test(os)
      ? 'License Included'
      : 'No License required',
    location_type: LOCATION_TYPES[stream.provider],
    normalization_size_factor: sizeFactor(stream),
    operating_system: os,
    pre_installed_sw: 'NA',
    price_currency: 'USD',
    provider_service: stream.service,
    provider_sku_id: [
      stream.provider,
      stream.service,
      stream.region,
      stream.instanceType,
      os,
      stream.tenancy,
    ].join(':'),
    region: stream.region,
    service: stream.service,
    tenancy: stream.tenancy,
    usage_type: stream.usageType,
    version: '',
    ondemand_usage_unit: stream.usageUnit,
  };
}

/** Builds Resource records, deriving the fields of each SKU once. */
export function resourceDescriber(
  orgId: string,
): (stream: UsageStream, dates: ResourceDates, reservable: boolean) => Resource {
  const skus = new Map<string, SkuFields>();
  // resourceUuid per provider, with the leading parts of the name encoded once.
  const uuids = new Map<Provider, (resourceId: string) => string>();
  const uuidOf = (stream: UsageStream) => {
    let uuid = uuids.get(stream.provider);
    if (!uuid) {
      uuid = deterministicUuids('resource', orgId, stream.provider);
      uuids.set(stream.provider, uuid);
    }
    return uuid(stream.resourceId);
  };
  return (stream, dates, reservable) => {
    const key = `${stream.provider}\u001f${stream.service}\u001f${stream.region}\u001f${stream.instanceType}\u001f${stream.operatingSystem}\u001f${stream.tenancy}\u001f${stream.usageType}\u001f${stream.usageUnit}\u001f${stream.deploymentOption ?? ''}`;
    let sku = skus.get(key);
    if (!sku) {
      sku = skuFields(stream);
      skus.set(key, sku);
    }
    const name = shortName(stream.resourceId);
    // Listed field by field: spreading `sku` would make V8 build each record the slow way.
    return {
      provider: sku.provider,
      is_spot: sku.is_spot,
      vpc_networking_support: sku.vpc_networking_support,
      sku_title: sku.sku_title,
      sku_name: sku.sku_name,
      availability_zone: sku.availability_zone,
      cache_engine: sku.cache_engine,
      database_engine: sku.database_engine,
      description: sku.description,
      family: sku.family,
      full_region_name: sku.full_region_name,
      instance_type: sku.instance_type,
      instance_type_family: sku.instance_type_family,
      license_model: sku.license_model,
      location_type: sku.location_type,
      normalization_size_factor: sku.normalization_size_factor,
      operating_system: sku.operating_system,
      pre_installed_sw: sku.pre_installed_sw,
      price_currency: sku.price_currency,
      provider_service: sku.provider_service,
      provider_sku_id: sku.provider_sku_id,
      region: sku.region,
      service: sku.service,
      tenancy: sku.tenancy,
      usage_type: sku.usage_type,
      version: sku.version,
      ondemand_usage_unit: sku.ondemand_usage_unit,
      id: stream.resourceId,
      resource_id: uuidOf(stream),
      provider_resource_id: stream.resourceId,
      usage_start: dates.usageStart,
      usage_end: dates.usageEnd,
      tags: {},
      created_at: dates.firstSeen,
      updated_at: dates.lastSeen,
      has_ondemand_terms: stream.ondemandPrice > 0,
      is_reservable: reservable,
      management_account_id: stream.accountId,
      owner_account_id: stream.accountId,
      name,
      resource_group:
        stream.provider === 'azure' ? (/\/resourceGroups\/([^/]+)/i.exec(stream.resourceId)?.[1] ?? '') : '',
      instance_id: name,
      publication_date: dates.priceDate,
    };
  };
}
