/**
 * Azure FOCUS cost exports written for the tests (docs/import.md): the columns Microsoft's
 * FocusCost dataset has for a VM's hours, with its `x_Sku...` extension columns, and the lines a
 * real month has beside them (a managed disk, a reservation purchase, a spot VM).
 */

const HOUR_MS = 3_600_000;

export const azureFocusHeader = [
  'BilledCost',
  'ChargeCategory',
  'ChargeClass',
  'ChargeDescription',
  'ChargePeriodStart',
  'ChargePeriodEnd',
  'ConsumedQuantity',
  'ConsumedUnit',
  'ListUnitPrice',
  'PricingCategory',
  'ProviderName',
  'RegionId',
  'ResourceId',
  'ServiceName',
  'SubAccountId',
  'x_SkuDetails',
  'x_SkuMeterCategory',
  'x_SkuMeterName',
  'x_SkuMeterSubcategory',
];

export interface AzureVm {
  readonly subscriptionId: string;
  readonly name: string;
  readonly region: string;
  readonly size: string;
  /** `D4s v5` */
  readonly meterName: string;
  /** `Dsv5 Series` (Linux) or `Dsv5 Series Windows`. */
  readonly meterSubcategory: string;
  readonly listPrice: number;
  /** How its hours are billed: `Standard` (pay-as-you-go) or `Committed` (a reservation's). */
  readonly pricing: 'Standard' | 'Committed';
}

export const azureVmId = (vm: AzureVm) =>
  `/subscriptions/${vm.subscriptionId}/resourceGroups/rg-prod/providers/Microsoft.Compute/virtualMachines/${vm.name}`;

function field(value: string | number): string {
  const text = String(value);
  return /[",\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');

/** One hour of a VM as FOCUS writes it. */
export function azureVmHourRow(vm: AzureVm, startMs: number, quantity = 1): (string | number)[] {
  return [
    vm.pricing === 'Committed' ? 0 : quantity * vm.listPrice,
    'Usage',
    '',
    `${vm.meterName} ${vm.meterSubcategory}`,
    iso(startMs),
    iso(startMs + HOUR_MS),
    quantity,
    'Hours',
    vm.listPrice,
    vm.pricing,
    'Microsoft',
    vm.region,
    azureVmId(vm),
    'Virtual Machines',
    `/subscriptions/${vm.subscriptionId}`,
    JSON.stringify({ ServiceType: vm.size, VCPUs: 4, ImageType: 'Canonical' }),
    'Virtual Machines',
    vm.meterName,
    vm.meterSubcategory,
  ];
}

/** The other lines of an hour: a managed disk (not a VM's hours) and a spot VM. */
function otherRows(subscriptionId: string, region: string, startMs: number): (string | number)[][] {
  const sub = `/subscriptions/${subscriptionId}`;
  return [
    [
      0.01,
      'Usage',
      '',
      'P10 LRS Disk',
      iso(startMs),
      iso(startMs + HOUR_MS),
      0.0014,
      '1/Month',
      7.3,
      'Standard',
      'Microsoft',
      region,
      `${sub}/resourceGroups/rg-prod/providers/Microsoft.Compute/disks/os-disk`,
      'Storage',
      sub,
      '{}',
      'Storage',
      'P10 LRS Disk',
      'Premium SSD Managed Disks',
    ],
    [
      0.02,
      'Usage',
      '',
      'D2s v5 Spot Dsv5 Series',
      iso(startMs),
      iso(startMs + HOUR_MS),
      1,
      'Hours',
      0.02,
      'Dynamic',
      'Microsoft',
      region,
      `${sub}/resourceGroups/rg-batch/providers/Microsoft.Compute/virtualMachines/batch-1`,
      'Virtual Machines',
      sub,
      JSON.stringify({ ServiceType: 'Standard_D2s_v5' }),
      'Virtual Machines',
      'D2s v5 Spot',
      'Dsv5 Series',
    ],
  ];
}

/**
 * `hours` hours from `start` of the VMs, each hour one row per VM plus two other rows, and one
 * reservation purchase line at the start: `(vms + 2) * hours + 1` rows.
 */
export function azureFocusCsv(vms: readonly AzureVm[], start: string, hours: number): string {
  const first = Date.parse(start);
  const subscriptionId = vms[0]?.subscriptionId ?? '00000000-0000-0000-0000-000000000000';
  const region = vms[0]?.region ?? 'eastus';
  const rows: (string | number)[][] = [
    [
      1500,
      'Purchase',
      '',
      'Reservation purchase',
      iso(first),
      iso(first + HOUR_MS),
      1,
      'Hours',
      0,
      'Committed',
      'Microsoft',
      '',
      '',
      'Virtual Machines',
      `/subscriptions/${subscriptionId}`,
      '{}',
      'Virtual Machines',
      '',
      '',
    ],
  ];
  for (let t = 0; t < hours; t++) {
    const at = first + t * HOUR_MS;
    for (const vm of vms) rows.push(azureVmHourRow(vm, at));
    rows.push(...otherRows(subscriptionId, region, at));
  }
  return [azureFocusHeader, ...rows].map((row) => row.map(field).join(',')).join('\n');
}
