import type { SkipReason } from './aws-instance-hours';

/**
 * What Azure's billing data says about a virtual machine's hours (docs/import.md, Billing
 * exports): the VM size from the SKU details' `ServiceType`, the platform from the meter
 * subcategory (Azure bills a Windows VM on a `... Windows` meter), and the subscription from the
 * sub-account.
 */

export interface AzureVmDescription {
  readonly service: 'Virtual Machines';
  readonly instanceType: string;
  readonly operatingSystem: 'Linux' | 'Windows';
  readonly tenancy: 'Shared';
  /** Databases only (AWS): a VM has none. */
  readonly deploymentOption?: undefined;
}

/** What an Azure usage row says of the VM it bills, in the columns FOCUS and actual cost share. */
export interface AzureVmRow {
  /** FOCUS `ServiceName` or `x_SkuMeterCategory`, actual cost `MeterCategory`. */
  readonly meterCategory: string;
  /** FOCUS `x_SkuMeterSubcategory`, actual cost `MeterSubCategory`: `Dsv5 Series Windows`. */
  readonly meterSubcategory: string;
  /** FOCUS `x_SkuMeterName`, actual cost `MeterName`: `D4s v5`, `D4s v5 Spot`, `D4s v5 Low Priority`. */
  readonly meterName: string;
  /** FOCUS `x_SkuDetails`, actual cost `AdditionalInfo`: a JSON object (text or parsed). */
  readonly skuDetails: unknown;
  /** FOCUS `ConsumedUnit`, actual cost `UnitOfMeasure`. */
  readonly unit: string;
}

/** The units Azure bills VM hours in: FOCUS writes `Hours`, actual cost `1 Hour`. */
const hourUnits = /^(?:1 )?(?:Hour|Hours|Hrs)$/;

/** `{"ServiceType":"Standard_D4s_v5",...}` as text, an object or a Map -> `Standard_D4s_v5`. */
function serviceTypeOf(details: unknown): string {
  let parsed = details;
  if (typeof details === 'string') {
    if (!details.startsWith('{')) return '';
    try {
      parsed = JSON.parse(details);
    } catch {
      return '';
    }
  }
  if (parsed instanceof Map) return String(parsed.get('ServiceType') ?? '');
  if (parsed !== null && typeof parsed === 'object') {
    const value = (parsed as Record<string, unknown>).ServiceType;
    return typeof value === 'string' ? value : '';
  }
  return '';
}

/** Classifies an Azure usage row: a VM's hours (with its description), or the reason it is skipped. */
export function azureVmHour(row: AzureVmRow): AzureVmDescription | SkipReason {
  if (row.meterCategory !== 'Virtual Machines') return 'not_instance_hours';
  if (/\b(Spot|Low Priority)\b/.test(`${row.meterName} ${row.meterSubcategory}`)) return 'spot';
  if (!hourUnits.test(row.unit)) return 'not_instance_hours';
  const instanceType = serviceTypeOf(row.skuDetails);
  if (!instanceType.startsWith('Standard_') && !instanceType.startsWith('Basic_'))
    return 'not_instance_hours';
  return {
    service: 'Virtual Machines',
    instanceType,
    operatingSystem: /\bWindows\b/.test(row.meterSubcategory) ? 'Windows' : 'Linux',
    tenancy: 'Shared',
  };
}

/** `/subscriptions/<id>` (FOCUS `SubAccountId`) or a bare id -> `<id>`. */
export function azureSubscriptionId(subAccount: string): string {
  return /^\/subscriptions\/([^/]+)/i.exec(subAccount)?.[1] ?? subAccount;
}
