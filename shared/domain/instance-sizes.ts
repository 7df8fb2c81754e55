/**
 * Instance sizes and the units size-flexible commitments count in.
 *
 * AWS: a regional Linux/shared-tenancy reservation covers every size of its family in the region,
 * counted in normalization units (nano 0.25, micro 0.5, small 1, medium 2, large 4, xlarge 8,
 * Nxlarge 8N). `metal` sizes have family-specific factors, so they are not parsed: such instances
 * are matched exactly.
 * Azure: instance size flexibility lets a VM reservation cover every size of its flexibility group
 * in the region, each size counting for its published ratio. Groups and ratios are Azure's own
 * table (catalog/data/azure-instance-size-flexibility.json, packed with the catalog's files and validated by `npm run catalog:pack`
 * and the unit tests: catalog-validation.ts), not a parse of the size name: the
 * digits do not say the group or the ratio (`Standard_D3_v2` is 4 vCPUs; `Standard_D11_v2` is in
 * the memory-optimized "Dv2 Series High Memory", not with `Standard_D1_v2`). A size the table
 * does not list is matched exactly.
 */
import type { AzureFlexibilityFile } from './catalog/azure-flexibility-file';
import { unpackCatalog } from './catalog/packed-data';

const AWS_SIZE_FACTORS: Readonly<Record<string, number>> = {
  nano: 0.25,
  micro: 0.5,
  small: 1,
  medium: 2,
  large: 4,
  xlarge: 8,
};

export interface SizedInstance {
  /** The group a size-flexible commitment covers: `m5`, `db.r5`, `Dsv5`. */
  readonly family: string;
  /** Units one instance of this size counts for within its family. */
  readonly units: number;
}

/** The normalization factor of an AWS size token (`xlarge` 8, `4xlarge` 32); null if not size-flexible. */
export function awsNormalizationFactor(sizeToken: string): number | null {
  const known = AWS_SIZE_FACTORS[sizeToken];
  if (known !== undefined) return known;
  const multiple = /^([1-9]\d*)xlarge$/.exec(sizeToken);
  return multiple?.[1] ? 8 * Number(multiple[1]) : null;
}

/** `m5.xlarge` -> { family: 'm5', units: 8 }; `db.r5.large` -> { family: 'db.r5', units: 4 }; else null. */
export function parseAwsInstanceType(instanceType: string): SizedInstance | null {
  const match = /^((?:db\.|cache\.)?[a-z][a-z0-9-]*)\.([a-z0-9]+)$/.exec(instanceType);
  if (!match?.[1] || !match[2]) return null;
  const units = awsNormalizationFactor(match[2]);
  return units === null ? null : { family: match[1], units };
}

/** Each listed size's group (the published group name without "Series": `Dsv5`, `Dv2 High Memory`) and ratio. */
function azureSizeTable({ groups }: AzureFlexibilityFile): ReadonlyMap<string, SizedInstance> {
  const sizes = new Map<string, SizedInstance>();
  for (const [group, ratios] of Object.entries(groups)) {
    const family = group.replace(/ Series\b/, '');
    for (const [size, units] of Object.entries(ratios)) {
      if (sizes.has(size)) throw new Error(`Azure size ${size} is in two flexibility groups`);
      sizes.set(size, { family, units });
    }
  }
  return sizes;
}

/**
 * Indexed on first use, not when the module loads: the engine imports this module,
 * and a function that loads the engine but serves a request without computing a plan (a stored
 * plan, its line items) never needs the table. Built once; the bundled data never changes.
 */
let azureSizes: ReadonlyMap<string, SizedInstance> | undefined;

/** The table as shipped: packed with the catalog's files (catalog/packed-data.ts). */
function azureFlexibilityFile(): AzureFlexibilityFile {
  return unpackCatalog()['azure-instance-size-flexibility.json'] as AzureFlexibilityFile;
}

/** Where the Azure flexibility table comes from (its `source` field). */
export function azureFlexibilitySource(): string {
  return azureFlexibilityFile().source;
}

/**
 * `Standard_D4s_v5` -> { family: 'Dsv5', units: 4 }; `Standard_D11_v2` -> { family: 'Dv2 High Memory',
 * units: 2 }: the size's instance size flexibility group and ratio; null for a size the table does not list.
 */
export function azureFlexibilityGroup(vmSize: string): SizedInstance | null {
  azureSizes ??= azureSizeTable(azureFlexibilityFile());
  return azureSizes.get(vmSize) ?? null;
}
