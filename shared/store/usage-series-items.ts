import type { DeploymentOption, Provider, UsageType } from '../domain/engine/shapes/model';
import type { PriceSource, UsageResource } from '../domain/usage/imported-usage';
import { hoursInMonth } from '../domain/usage/usage-months';
import { type ItemKey, usageSeriesKey } from './keys';
import type { StoredItem } from './table-client';

/** One resource's stored usage of one month. */
export interface StoredSeries {
  readonly month: string;
  readonly resource: UsageResource;
  /** Units used in each hour of the month (index 0 = its first hour). */
  readonly values: Float64Array;
}

const BYTES_PER_HOUR = 8;

/**
 * Hourly values as DynamoDB Binary: IEEE 754 doubles, little-endian, one per hour of the month
 * (5,952 bytes for 31 days), written explicitly so that no reader depends on the platform's order.
 */
function encodeHours(values: Float64Array): Uint8Array {
  const bytes = new Uint8Array(values.length * BYTES_PER_HOUR);
  const view = new DataView(bytes.buffer);
  for (let hour = 0; hour < values.length; hour++) {
    view.setFloat64(hour * BYTES_PER_HOUR, values[hour] as number, true);
  }
  return bytes;
}

function decodeHours(bytes: Uint8Array, month: string): Float64Array {
  const hours = hoursInMonth(month);
  if (bytes.byteLength !== hours * BYTES_PER_HOUR) {
    throw new Error(
      `usage series of ${month} holds ${bytes.byteLength} bytes; expected ${hours * BYTES_PER_HOUR}`,
    );
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const values = new Float64Array(hours);
  for (let hour = 0; hour < hours; hour++) values[hour] = view.getFloat64(hour * BYTES_PER_HOUR, true);
  return values;
}

/**
 * The item of a series. Series are replaced whole by batched puts, never updated in place, so
 * `version` is always 1; `usageVersion` names the import that wrote it.
 */
export function toSeriesItem(
  orgId: string,
  series: StoredSeries,
  usageVersion: number,
): StoredItem & ItemKey {
  const { resource, month } = series;
  return {
    ...usageSeriesKey(orgId, resource.provider, resource.resourceId, month),
    type: 'usage_series',
    version: 1,
    usageVersion,
    month,
    resourceId: resource.resourceId,
    provider: resource.provider,
    accountId: resource.accountId,
    region: resource.region,
    service: resource.service,
    instanceType: resource.instanceType,
    operatingSystem: resource.operatingSystem,
    tenancy: resource.tenancy,
    ...(resource.deploymentOption ? { deploymentOption: resource.deploymentOption } : {}),
    usageType: resource.usageType,
    usageUnit: resource.usageUnit,
    ondemandPrice: resource.ondemandPrice,
    ...(resource.priceSource ? { priceSource: resource.priceSource } : {}),
    hours: encodeHours(series.values),
  };
}

export function toStoredSeries(item: StoredItem): StoredSeries {
  const month = item.month as string;
  return {
    month,
    resource: {
      resourceId: item.resourceId as string,
      provider: item.provider as Provider,
      accountId: item.accountId as string,
      region: item.region as string,
      service: item.service as string,
      instanceType: item.instanceType as string,
      operatingSystem: item.operatingSystem as string,
      tenancy: item.tenancy as string,
      ...(item.deploymentOption ? { deploymentOption: item.deploymentOption as DeploymentOption } : {}),
      usageType: item.usageType as UsageType,
      usageUnit: item.usageUnit as string,
      ondemandPrice: item.ondemandPrice as number,
      ...(item.priceSource ? { priceSource: item.priceSource as PriceSource } : {}),
    },
    values: decodeHours(item.hours as Uint8Array, month),
  };
}

/** Every field alike, optional ones (a deployment) included: either side may leave one out. */
export function sameResource(a: UsageResource, b: UsageResource): boolean {
  const fields = new Set([...Object.keys(a), ...Object.keys(b)] as (keyof UsageResource)[]);
  return [...fields].every((field) => a[field] === b[field]);
}
