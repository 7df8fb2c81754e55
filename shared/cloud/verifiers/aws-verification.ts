import type { AwsVerificationRequest } from '../../app/ports';
import {
  type AwsFeature,
  awsErrorKind,
  awsFeatures,
  bucketChecks,
  type CostExport,
  exportChecks,
  failedCheck,
  failureDetail,
  type ProviderFailure,
  unreachableChecks,
} from '../../domain/onboarding/aws-checks';
import { type CheckResult, check, inFeatureOrder } from '../../domain/onboarding/checklist';
import { providerFailureOf } from './provider-failure';

/**
 * What the AWS checks call in the customer's account, through the onboarding role. The SDK
 * adapter (aws-sdk-probe.ts) and the simulated cloud (local/) implement it; both throw errors
 * named as AWS names them (AccessDenied, ThrottlingException, NoSuchBucket, UnauthorizedOperation).
 */
export interface AwsAccountProbe {
  /** STS AssumeRole with the external id; the session's calls use the role's credentials. */
  assumeRole(request: AwsVerificationRequest): Promise<AwsAccountSession>;
}

export interface AwsAccountSession {
  /** Data Exports: the export named `name` (any CUR export when null), or null. */
  findDataExport(name: string | null): Promise<CostExport | null>;
  /** Legacy CUR DescribeReportDefinitions: the report named `name` (any when null), or null. */
  findLegacyReport(name: string | null): Promise<CostExport | null>;
  /** S3 ListObjectsV2 on the prefix: the keys of the first page. */
  listObjects(location: { bucket: string; prefix: string; region: string }): Promise<{ keys: string[] }>;
  /** A minimal Cost Explorer query. */
  queryCostExplorer(): Promise<void>;
  /** EC2 PurchaseReservedInstancesOffering with DryRun: resolves when it would be allowed. */
  dryRunReservationPurchase(): Promise<void>;
}

type Outcome<T> = { ok: true; value: T } | { ok: false; failure: ProviderFailure };

async function attempt<T>(call: () => Promise<T>): Promise<Outcome<T>> {
  try {
    return { ok: true, value: await call() };
  } catch (error) {
    return { ok: false, failure: providerFailureOf(error) };
  }
}

/**
 * Runs the AWS checks (docs/onboarding.md): the role first (nothing else can run without it), then every
 * other call at once. A failed call decides its own checks only; the result lists every feature.
 */
export async function runAwsChecks(
  probe: AwsAccountProbe,
  request: AwsVerificationRequest,
): Promise<CheckResult[]> {
  const assumed = await attempt(() => probe.assumeRole(request));
  if (!assumed.ok) {
    const kind = awsErrorKind(assumed.failure.name);
    const status = kind === 'throttled' || kind === 'other' ? 'unknown' : 'missing';
    const detail = failureDetail(`sts:AssumeRole ${request.roleArn}`, assumed.failure);
    return [check('role_assumable', status, detail), ...unreachableChecks('the role could not be assumed')];
  }
  const session = assumed.value;
  const named = request.existingCur;
  const exportLookup = lookUpExport(session, named?.reportName ?? null);
  // With the location named, the bucket is listed at once; otherwise where the export delivers.
  const bucketLookup = named
    ? checkBucket(session, { bucket: named.bucket, prefix: named.prefix, region: named.region })
    : exportLookup.then((found) =>
        found.ok && found.value
          ? checkBucket(session, {
              bucket: found.value.bucket,
              prefix: found.value.prefix,
              region: found.value.region,
            })
          : [
              check(
                'cur_bucket_readable',
                'unknown',
                'no export location to check: name the existing export',
              ),
              check('cur_delivered', 'unknown', 'no export location to check: name the existing export'),
            ],
      );
  const [exportItems, bucketItems, costExplorer, purchase] = await Promise.all([
    exportLookup.then((found) => exportItemsOf(found, named?.reportName ?? null)),
    bucketLookup,
    request.costExplorerResult ?? attempt(() => session.queryCostExplorer()),
    attempt(() => session.dryRunReservationPurchase()),
  ]);
  const items: CheckResult[] = [
    check('role_assumable', 'available', `assumed ${request.roleArn} with the external id`),
    ...exportItems,
    ...bucketItems,
    'feature' in costExplorer
      ? costExplorer
      : costExplorer.ok
        ? check('cost_explorer_access', 'available', 'Cost Explorer answered')
        : failedCheck('cost_explorer_access', 'ce:GetCostAndUsage', costExplorer.failure, true),
    purchase.ok
      ? check('purchase_permission', 'available', 'EC2 DryRun of PurchaseReservedInstancesOffering allowed')
      : failedCheck(
          'purchase_permission',
          'ec2:PurchaseReservedInstancesOffering (DryRun)',
          purchase.failure,
          true,
        ),
  ];
  return inFeatureOrder(awsFeatures, items);
}

/** The export, from Data Exports or else the legacy CUR (both asked at once). */
async function lookUpExport(
  session: AwsAccountSession,
  name: string | null,
): Promise<Outcome<CostExport | null>> {
  const [current, legacy] = await Promise.all([
    attempt(() => session.findDataExport(name)),
    attempt(() => session.findLegacyReport(name)),
  ]);
  if (current.ok && current.value) return current;
  if (legacy.ok && legacy.value) return legacy;
  // Found in neither: a refused or throttled lookup leaves it unknown rather than missing.
  if (!current.ok) return current;
  if (!legacy.ok) return legacy;
  return { ok: true, value: null };
}

function exportItemsOf(found: Outcome<CostExport | null>, reportName: string | null): CheckResult[] {
  if (found.ok) return exportChecks(found.value, reportName);
  const features: AwsFeature[] = ['cur_export', 'cur_hourly', 'cur_resource_ids'];
  return features.map((feature) =>
    failedCheck(feature, 'bcm-data-exports:GetExport / cur:DescribeReportDefinitions', found.failure, false),
  );
}

async function checkBucket(
  session: AwsAccountSession,
  location: { bucket: string; prefix: string; region: string },
): Promise<CheckResult[]> {
  const where = `s3://${location.bucket}/${location.prefix}`;
  const listed = await attempt(() => session.listObjects(location));
  if (listed.ok) return bucketChecks(listed.value, where);
  const kind = awsErrorKind(listed.failure.name);
  const action = `s3:ListBucket ${where}`;
  return [
    failedCheck('cur_bucket_readable', action, listed.failure, true),
    kind === 'not_found'
      ? failedCheck('cur_delivered', action, listed.failure, true)
      : check('cur_delivered', 'unknown', `not checked: ${failureDetail(action, listed.failure)}`),
  ];
}
