import { type CheckResult, check } from './checklist';

/** The AWS checklist (docs/onboarding.md), in the order it is answered. */
export const awsFeatures = [
  'role_assumable',
  'cur_export',
  'cur_hourly',
  'cur_resource_ids',
  'cur_bucket_readable',
  'cur_delivered',
  'cost_explorer_access',
  'purchase_permission',
] as const;
export type AwsFeature = (typeof awsFeatures)[number];

/**
 * The role each customer account creates from the onboarding template, and which both the
 * verifier and the purchase processor assume (its `MARKETPLACE_ROLE_ARN` template names it too:
 * docs/deploy.md). One fixed name, so that the service's own `sts:AssumeRole` permission names it.
 */
export const onboardingRoleName = 'commitment-planning-purchaser';

export function onboardingRoleArn(accountId: string): string {
  return `arn:aws:iam::${accountId}:role/${onboardingRoleName}`;
}

/** A Cost and Usage export as the provider describes it (Data Exports, or a legacy CUR definition). */
export interface CostExport {
  readonly name: string;
  readonly source: 'data-exports' | 'legacy-cur';
  readonly granularity: 'HOURLY' | 'DAILY' | 'MONTHLY' | string;
  /** `parquet` or `csv`. */
  readonly format: 'parquet' | 'csv' | string;
  readonly includesResourceIds: boolean;
  readonly bucket: string;
  readonly prefix: string;
  /** The bucket's region. */
  readonly region: string;
}

/** How an AWS error bears on a check: what the caller was refused, and why. */
export type AwsErrorKind = 'denied' | 'throttled' | 'not_found' | 'other';

const deniedNames = new Set([
  'AccessDenied',
  'AccessDeniedException',
  'UnauthorizedOperation',
  'UnauthorizedAccess',
  'AuthorizationError',
  'InvalidClientTokenId',
  'ExpiredToken',
  'Forbidden',
]);
const throttledNames = new Set([
  'Throttling',
  'ThrottlingException',
  'TooManyRequestsException',
  'RequestLimitExceeded',
  'LimitExceededException',
  'SlowDown',
  'ServiceUnavailable',
  'ServiceUnavailableException',
]);
const notFoundNames = new Set(['NoSuchBucket', 'ResourceNotFoundException', 'NotFound', 'NoSuchKey']);

/** Classifies an AWS error by its name (the SDK's `name`, the error code). */
export function awsErrorKind(name: string): AwsErrorKind {
  if (deniedNames.has(name)) return 'denied';
  if (throttledNames.has(name)) return 'throttled';
  if (notFoundNames.has(name)) return 'not_found';
  return 'other';
}

/** A failed call as the checks see it: the error's name and the provider's message. */
export interface ProviderFailure {
  readonly name: string;
  readonly message: string;
}

export function failureDetail(action: string, failure: ProviderFailure): string {
  return `${action}: ${failure.name}: ${failure.message}`;
}

/**
 * A check whose call failed. A refusal of the very thing checked is `missing` (the bucket is not
 * readable, Cost Explorer is not allowed); a refusal of a call the check only needs, a throttled
 * call, or an unexpected error means the feature could not be checked: `unknown`.
 */
export function failedCheck(
  feature: AwsFeature,
  action: string,
  failure: ProviderFailure,
  deniedMeansMissing: boolean,
): CheckResult {
  const kind = awsErrorKind(failure.name);
  const missing = kind === 'not_found' || (kind === 'denied' && deniedMeansMissing);
  return check(feature, missing ? 'missing' : 'unknown', failureDetail(action, failure));
}

/** Every check after `role_assumable` when the role could not be assumed: none could run. */
export function unreachableChecks(reason: string): CheckResult[] {
  return awsFeatures
    .filter((feature) => feature !== 'role_assumable')
    .map((feature) => check(feature, 'unknown', `not checked: ${reason}`));
}

const dataExportsLabel = 'Data Exports';
const legacyCurLabel = 'legacy Cost and Usage Report';

/**
 * Which kind of export the last verification found, from its `cur_export` item (written by
 * exportChecks below): null when it found none.
 */
export function verifiedExportSource(items: readonly CheckResult[]): CostExport['source'] | null {
  const found = items.find((item) => item.feature === 'cur_export');
  if (!found || (found.status !== 'available' && found.status !== 'warning')) return null;
  if (found.detail.startsWith(`${dataExportsLabel} `)) return 'data-exports';
  if (found.detail.startsWith(`${legacyCurLabel} `)) return 'legacy-cur';
  return null;
}

/** What the export found (or not found) means for `cur_export`, `cur_hourly` and `cur_resource_ids`. */
export function exportChecks(found: CostExport | null, reportName: string | null): CheckResult[] {
  if (!found) {
    const named = reportName ? `no export named ${reportName}` : 'no Cost and Usage export';
    return [
      check('cur_export', 'missing', `${named} in Data Exports or the legacy Cost and Usage Reports`),
      check('cur_hourly', 'missing', 'no export to read the granularity of'),
      check('cur_resource_ids', 'missing', 'no export to read the columns of'),
    ];
  }
  const source = found.source === 'data-exports' ? dataExportsLabel : legacyCurLabel;
  const exportItem =
    found.format === 'parquet'
      ? check('cur_export', 'available', `${source} ${found.name}, Parquet`)
      : check(
          'cur_export',
          'warning',
          `${source} ${found.name} is delivered as ${found.format.toUpperCase()}; Parquet is recommended`,
        );
  const hourly =
    found.granularity === 'HOURLY'
      ? check('cur_hourly', 'available', 'hourly granularity')
      : found.granularity === 'DAILY'
        ? check(
            'cur_hourly',
            'warning',
            'daily granularity: plans are computed from hourly usage; choose hourly',
          )
        : check('cur_hourly', 'missing', `${found.granularity.toLowerCase()} granularity: hourly is needed`);
  const resources = found.includesResourceIds
    ? check('cur_resource_ids', 'available', 'includes resource ids')
    : check('cur_resource_ids', 'missing', 'resource ids are not included: turn on "Include resource IDs"');
  return [exportItem, hourly, resources];
}

/** Whether an object key looks like delivered report data or its manifest. */
export function isReportObject(key: string): boolean {
  return /(\.parquet|\.csv\.gz|\.csv\.zip|\.csv|Manifest\.json)$/i.test(key);
}

/** `cur_bucket_readable` and `cur_delivered` from one listing of the export's prefix. */
export function bucketChecks(listing: { readonly keys: readonly string[] }, location: string): CheckResult[] {
  const delivered = listing.keys.filter(isReportObject);
  return [
    check('cur_bucket_readable', 'available', `listed ${location}`),
    delivered.length > 0
      ? check('cur_delivered', 'available', `${delivered.length} report file(s) under ${location}`)
      : check(
          'cur_delivered',
          'missing',
          `no report delivered under ${location} yet (the first delivery can take up to 24 hours)`,
        ),
  ];
}
