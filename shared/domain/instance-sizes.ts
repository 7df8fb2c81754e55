/**
 * Instance sizes and the units size-flexible commitments count in.
 *
 * AWS: a regional Linux/shared-tenancy reservation covers every size of its family in the region,
 * counted in normalization units (nano 0.25, micro 0.5, small 1, medium 2, large 4, xlarge 8,
 * Nxlarge 8N). `metal` sizes have family-specific factors, so they are not parsed: such instances
 * are matched exactly.
 * Azure: instance size flexibility lets a VM reservation cover every size of its series in the
 * region; within the general-purpose series the published ratios are proportional to the vCPU
 * count, which the size name carries (`Standard_D4s_v5` = series Dsv5, 4 vCPUs).
 */

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

/** `Standard_D4s_v5` -> { family: 'Dsv5', units: 4 }; constrained-core and unknown names -> null. */
export function parseAzureVmSize(vmSize: string): SizedInstance | null {
  const match = /^Standard_([A-Z]+)(\d+)([a-z]*)(?:_v(\d+))?$/.exec(vmSize);
  if (!match?.[1] || !match[2]) return null;
  const units = Number(match[2]);
  if (units <= 0) return null;
  const version = match[4] ? `v${match[4]}` : '';
  return { family: `${match[1]}${match[3] ?? ''}${version}`, units };
}
