import { createHash, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { AwsUsageSources, UsageSourceSession } from '../shared/app/ports/usage-sync';
import { ProviderError } from '../shared/cloud/verifiers/provider-failure';
import type { ExistingCommitment } from '../shared/domain/engine/shapes/model';
import { type ExportLayout, exportRoot } from '../shared/domain/usage-sources/export-files';
import { changeSimulatedCloud, readSimulatedCloud, type SimulatedAwsAccount } from './simulated-cloud';
import { simulatedExportSession } from './simulated-export-session';

/** Where the sync's tests and the demo read a simulated file from (simulated-export-session.ts). */
export { simulatedFileSource } from './simulated-export-session';

/**
 * The simulated cloud's exports and owned commitments (docs/onboarding.md, The simulated cloud):
 * `admin simulate-cloud aws --deliver` writes a file into an account's export as AWS delivers it
 * (the data file under its billing period, the period's manifest naming its files), stored under
 * `<LOCAL_DIR>/cloud/aws/<bucket>/<key>` with S3's ETag of a single-part upload (the MD5 of the
 * bytes); `--commitments` sets what the describe calls answer. The simulated usage sources read them.
 */

/** Where a simulated bucket's object is stored. */
export function simulatedObjectPath(dir: string, bucket: string, key: string): string {
  return join(dir, 'cloud', 'aws', bucket, ...key.split('/'));
}

function layoutOf(account: SimulatedAwsAccount): ExportLayout & { bucket: string } {
  const found = account.exports[0];
  if (!found) throw new Error('the account has no export to deliver to');
  return { kind: found.source, bucket: found.bucket, prefix: found.prefix, name: found.name };
}

const extensionOf = (file: string) =>
  /(\.snappy\.parquet|\.parquet|\.csv\.gz|\.csv)$/i.exec(file)?.[1] ?? '.csv';

/** The period's first and next month's first day: `yyyymmdd-yyyymmdd`. */
function periodRange(period: string): string {
  const [year, month] = period.split('-').map(Number) as [number, number];
  const next = month === 12 ? `${year + 1}0101` : `${year}${String(month + 1).padStart(2, '0')}01`;
  return `${period.replace('-', '')}01-${next}`;
}

/** The period's data folder and manifest key in the export's layout. */
function deliveryPaths(layout: ExportLayout, period: string): { folder: string; manifest: string } {
  const root = exportRoot(layout);
  if (layout.kind === 'data-exports') {
    return {
      folder: `${root}/data/BILLING_PERIOD=${period}`,
      manifest: `${root}/metadata/BILLING_PERIOD=${period}/${layout.name}-Manifest.json`,
    };
  }
  const range = `${root}/${periodRange(period)}`;
  return { folder: range, manifest: `${range}/${layout.name}-Manifest.json` };
}

/**
 * Delivers `file` into the account's export for `period` (`YYYY-MM`): beside the period's files
 * already delivered, or in place of them with `replace`; the period's manifest is written again
 * naming them all. Answers the keys delivered.
 */
export async function deliverSimulatedAwsFile(
  dir: string,
  accountId: string,
  file: string,
  period: string,
  replace: boolean,
): Promise<{ key: string; manifest: string; files: string[] }> {
  const bytes = await readFile(file);
  let delivered: { key: string; manifest: string; files: string[] } | undefined;
  const written: { path: string; bytes: Uint8Array | string }[] = [];
  const removed: string[] = [];
  const removedPaths: string[] = [];
  await changeSimulatedCloud(dir, (cloud) => {
    const account = cloud.aws[accountId];
    if (!account)
      throw new Error(`no simulated AWS account ${accountId}: add it with simulate-cloud aws first`);
    const layout = layoutOf(account);
    account.buckets[layout.bucket] ??= { objects: [] };
    const bucket = account.buckets[layout.bucket] as { objects: string[] };
    const { folder, manifest } = deliveryPaths(layout, period);
    // Keys without a stored file (a new account's placeholder) were never delivered: left out.
    const inPeriod = bucket.objects.filter(
      (key) =>
        key.startsWith(`${folder}/`) &&
        key !== manifest &&
        existsSync(simulatedObjectPath(dir, layout.bucket, key)),
    );
    if (replace) {
      removed.push(...inPeriod);
      bucket.objects = bucket.objects.filter((key) => !inPeriod.includes(key));
    }
    const kept = replace ? [] : inPeriod;
    const key = `${folder}/${layout.name}-${String(kept.length + 1).padStart(5, '0')}${extensionOf(basename(file))}`;
    const files = [...kept, key];
    const manifestBody =
      layout.kind === 'data-exports'
        ? {
            executionId: randomUUID(),
            exportName: layout.name,
            billingPeriod: period,
            dataFiles: files.map((each) => `s3://${layout.bucket}/${each}`),
          }
        : { assemblyId: randomUUID(), reportName: layout.name, bucket: layout.bucket, reportKeys: files };
    bucket.objects = [...new Set([...bucket.objects, key, manifest])].sort();
    written.push(
      { path: simulatedObjectPath(dir, layout.bucket, key), bytes },
      {
        path: simulatedObjectPath(dir, layout.bucket, manifest),
        bytes: `${JSON.stringify(manifestBody, null, 2)}\n`,
      },
    );
    // The replaced files go (a new file may take a replaced one's key: it is written after).
    for (const each of removed) removedPaths.push(simulatedObjectPath(dir, layout.bucket, each));
    delivered = { key, manifest, files };
  });
  // The files go in after the document names them: a sync between the two finds a manifest naming
  // a file not yet written and fails naming it, as on S3 while a delivery is under way.
  for (const path of removedPaths) await rm(path, { force: true });
  for (const { path, bytes: content } of written) {
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, content);
  }
  return delivered as { key: string; manifest: string; files: string[] };
}

/** Sets the commitments an account owns (the commitments CSV's rows of the account). */
export async function setSimulatedAwsCommitments(
  dir: string,
  accountId: string,
  commitments: readonly ExistingCommitment[],
): Promise<void> {
  await changeSimulatedCloud(dir, (cloud) => {
    const account = cloud.aws[accountId];
    if (!account)
      throw new Error(`no simulated AWS account ${accountId}: add it with simulate-cloud aws first`);
    account.commitments = [...commitments];
  });
}

/** The AWS usage sources of the simulated cloud, as the service account `serviceAccountId` reaches them. */
export function simulatedAwsUsageSources(
  dir: string,
  serviceAccountId: string,
  now: () => Date = () => new Date(),
): AwsUsageSources {
  return {
    async connect(account): Promise<UsageSourceSession> {
      const cloud = await readSimulatedCloud(dir);
      const role = cloud.aws[account.accountId]?.role;
      if (
        !role ||
        role.name !== account.roleArn.split('/').pop() ||
        role.trusted_account !== serviceAccountId ||
        role.external_id !== account.externalId
      ) {
        throw new ProviderError(
          'AccessDenied',
          `not authorized to perform: sts:AssumeRole on resource: ${account.roleArn}`,
        );
      }
      const location = account.export;
      const layout: ExportLayout = {
        kind: location.source,
        bucket: location.bucket,
        prefix: location.prefix,
        name: location.name,
      };
      const current = async () => {
        const found = (await readSimulatedCloud(dir)).aws[account.accountId];
        if (!found) throw new ProviderError('AccessDenied', 'the account left the simulated cloud');
        return found;
      };
      return simulatedExportSession(
        {
          layout,
          async keys() {
            const found = await current();
            if (!found.permissions.bucket) throw new ProviderError('AccessDenied', 'Access Denied');
            const bucket = found.buckets[location.bucket];
            if (!bucket) throw new ProviderError('NoSuchBucket', 'The specified bucket does not exist');
            return bucket.objects;
          },
          pathOf: (key) => simulatedObjectPath(dir, location.bucket, key),
          // S3's ETag of a single-part upload: the MD5 of the bytes.
          etagOf: (bytes) => createHash('md5').update(bytes).digest('hex'),
          async ownedCommitments(at) {
            return ((await current()).commitments ?? []).filter(
              (commitment) => Date.parse(commitment.end) > at,
            );
          },
        },
        now,
      );
    },
  };
}
