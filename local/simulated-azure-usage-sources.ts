import { createHash, randomUUID } from 'node:crypto';
import { copyFile, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { AzureUsageSources, UsageSourceSession } from '../shared/app/ports/usage-sync';
import { ProviderError } from '../shared/cloud/verifiers/provider-failure';
import type { ExistingCommitment } from '../shared/domain/engine/shapes/model';
import { permits } from '../shared/domain/onboarding/azure-checks';
import {
  currentManifests,
  type ExportLayout,
  exportListingPrefix,
  exportRoot,
  manifestKeys,
} from '../shared/domain/usage-sources/export-files';
import { simulatedArmCommitments } from './simulated-arm-orders';
import {
  azureRoles,
  changeSimulatedCloud,
  readSimulatedCloud,
  type SimulatedAzureSubscription,
  type SimulatedCloud,
} from './simulated-cloud';
import { listedObjects, simulatedExportSession } from './simulated-export-session';

/**
 * The simulated cloud's Azure exports and owned commitments (docs/onboarding.md, The simulated
 * cloud): `admin simulate-cloud azure --deliver` writes a file into a subscription's FOCUS export
 * as Cost Management delivers it (each run its own folder `<export root>/<yyyymmdd-yyyymmdd>/<run>/`
 * with the run's `manifest.json`), stored under `<LOCAL_DIR>/cloud/azure/<subscription>/<blob>`;
 * `--commitments` sets the reservations and savings plans ARM answers. The simulated usage sources
 * read them as the ARM and Blob adapter does.
 */

/** The root folder the simulated exports deliver under, in their container. */
export const simulatedExportDirectory = 'exports';

/** Where a subscription's delivered blob is stored. */
export function simulatedBlobPath(dir: string, subscriptionId: string, blob: string): string {
  return join(dir, 'cloud', 'azure', subscriptionId, ...blob.split('/'));
}

const extensionOf = (file: string) =>
  /(\.snappy\.parquet|\.parquet|\.csv\.gz|\.csv)$/i.exec(file)?.[1] ?? '.csv';

/** The period's first and last day: `yyyymmdd-yyyymmdd`, as Cost Management names a month's folder. */
function periodRange(period: string): string {
  const [year, month] = period.split('-').map(Number) as [number, number];
  const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return `${period.replace('-', '')}01-${period.replace('-', '')}${String(last).padStart(2, '0')}`;
}

function subscriptionIn(cloud: SimulatedCloud, subscriptionId: string) {
  for (const [tenantId, tenant] of Object.entries(cloud.azure)) {
    const subscription = tenant.subscriptions[subscriptionId];
    if (subscription) return { tenantId, tenant, subscription };
  }
  return null;
}

function layoutOf(subscription: SimulatedAzureSubscription): ExportLayout {
  const name = subscription.cost_exports[0];
  if (!name) throw new Error('the subscription has no Cost Management export to deliver to');
  return { kind: 'azure-cost-export', directory: simulatedExportDirectory, name };
}

/**
 * Delivers `file` into the subscription's export for `period` (`YYYY-MM`) as a new run: beside
 * the files of the period's last run (copied into the run, as a run writes the whole month again),
 * or alone with `replace`. Earlier runs stay where they are. Answers the blobs of the run.
 */
export async function deliverSimulatedAzureFile(
  dir: string,
  subscriptionId: string,
  file: string,
  period: string,
  replace: boolean,
): Promise<{ key: string; manifest: string; files: string[] }> {
  const cloud = await readSimulatedCloud(dir);
  const found = subscriptionIn(cloud, subscriptionId);
  if (!found) {
    throw new Error(
      `no simulated Azure subscription ${subscriptionId}: add it with simulate-cloud azure first`,
    );
  }
  const layout = layoutOf(found.subscription);
  const listed = await listedObjects(
    { pathOf: (key) => simulatedBlobPath(dir, subscriptionId, key), etagOf: blobEtag },
    found.subscription.blobs ?? [],
    exportListingPrefix(layout),
  );
  const range = periodRange(period);
  const lastRun = currentManifests(layout, listed).find((manifest) => manifest.billingPeriod === period);
  const previous =
    lastRun && !replace
      ? manifestKeys(
          layout,
          lastRun.key,
          await readFile(simulatedBlobPath(dir, subscriptionId, lastRun.key), 'utf8'),
        )
      : [];
  const runId = randomUUID();
  const folder = `${exportRoot(layout)}/${range}/${runId}`;
  const part = (index: number, name: string) =>
    `${folder}/part_0_${String(index + 1).padStart(4, '0')}${extensionOf(basename(name))}`;
  const copies = previous.map((blob, index) => ({ from: blob, to: part(index, blob) }));
  const key = part(copies.length, file);
  const files = [...copies.map((copy) => copy.to), key];
  for (const copy of copies) {
    const to = simulatedBlobPath(dir, subscriptionId, copy.to);
    await mkdir(dirname(to), { recursive: true });
    await copyFile(simulatedBlobPath(dir, subscriptionId, copy.from), to);
  }
  const target = simulatedBlobPath(dir, subscriptionId, key);
  await mkdir(dirname(target), { recursive: true });
  await copyFile(file, target);
  const sizes = await Promise.all(files.map((blob) => stat(simulatedBlobPath(dir, subscriptionId, blob))));
  const manifest = `${folder}/manifest.json`;
  const [year, month] = period.split('-');
  const manifestBody = {
    manifestVersion: '2024-04-01',
    byteCount: sizes.reduce((sum, each) => sum + each.size, 0),
    blobCount: files.length,
    exportConfig: {
      exportName: layout.name,
      resourceId: `/subscriptions/${subscriptionId}/providers/Microsoft.CostManagement/exports/${layout.name}`,
      dataVersion: '1.0',
      type: 'FocusCost',
      timeFrame: 'MonthToDate',
      granularity: 'Daily',
    },
    deliveryConfig: {
      partitionData: true,
      dataOverwriteBehavior: 'CreateNewReport',
      fileFormat: /parquet$/i.test(key) ? 'Parquet' : 'Csv',
      containerUri: `/subscriptions/${subscriptionId}/resourceGroups/rg-billing/providers/Microsoft.Storage/storageAccounts/${simulatedStorageAccount(subscriptionId)}`,
      rootFolderPath: simulatedExportDirectory,
    },
    runInfo: {
      executionType: 'Scheduled',
      submittedTime: new Date().toISOString(),
      runId,
      startDate: `${year}-${month}-01T00:00:00`,
      endDate: `${year}-${month}-${range.slice(-2)}T00:00:00`,
    },
    blobs: files.map((blob, index) => ({
      blobName: blob,
      byteCount: (sizes[index] as { size: number }).size,
    })),
  };
  // The manifest is written last, as Cost Management does once a run's files are in place.
  const manifestPath = simulatedBlobPath(dir, subscriptionId, manifest);
  await writeFile(manifestPath, `${JSON.stringify(manifestBody, null, 2)}\n`);
  await changeSimulatedCloud(dir, (current) => {
    const subscription = subscriptionIn(current, subscriptionId)?.subscription;
    if (!subscription) throw new Error(`the simulated Azure subscription ${subscriptionId} went away`);
    subscription.blobs = [...new Set([...(subscription.blobs ?? []), ...files, manifest])].sort();
  });
  return { key, manifest, files };
}

/** The storage account the simulated exports deliver to. */
export function simulatedStorageAccount(subscriptionId: string): string {
  return `costexports${subscriptionId
    .replace(/[^a-z0-9]/gi, '')
    .slice(0, 12)
    .toLowerCase()}`;
}

/** Sets the commitments a subscription owns (the commitments CSV's rows of it). */
export async function setSimulatedAzureCommitments(
  dir: string,
  subscriptionId: string,
  commitments: readonly ExistingCommitment[],
): Promise<void> {
  await changeSimulatedCloud(dir, (cloud) => {
    const found = subscriptionIn(cloud, subscriptionId);
    if (!found) {
      throw new Error(
        `no simulated Azure subscription ${subscriptionId}: add it with simulate-cloud azure first`,
      );
    }
    found.subscription.commitments = [...commitments];
  });
}

/** Blob Storage's ETag form (`0x` and 15 hex digits), here of the bytes' MD5. */
const blobEtag = (bytes: Uint8Array) =>
  `0x${createHash('md5').update(bytes).digest('hex').slice(0, 15).toUpperCase()}`;

/** The Azure usage sources of the simulated cloud, as the service's app `clientId` reaches them. */
export function simulatedAzureUsageSources(
  dir: string,
  clientId: string,
  now: () => Date = () => new Date(),
): AzureUsageSources {
  return {
    async connect(request): Promise<UsageSourceSession> {
      const tenant = (await readSimulatedCloud(dir)).azure[request.tenantId];
      if (!tenant) {
        throw new ProviderError('invalid_request', `AADSTS90002: Tenant '${request.tenantId}' not found.`);
      }
      if (!tenant.consent) {
        throw new ProviderError(
          'invalid_client',
          `AADSTS700016: Application with identifier '${clientId}' was not found in the directory '${request.tenantId}'.`,
        );
      }
      const current = async () => {
        const subscription = (await readSimulatedCloud(dir)).azure[request.tenantId]?.subscriptions[
          request.subscriptionId
        ];
        if (!subscription) {
          throw new ProviderError(
            'SubscriptionNotFound',
            `The subscription '${request.subscriptionId}' could not be found.`,
          );
        }
        return subscription;
      };
      const subscription = await current();
      const permissions = subscription.role_assignments.flatMap((role) => azureRoles[role] ?? []);
      if (!permits(permissions, 'Microsoft.CostManagement/exports/read')) {
        throw new ProviderError(
          'AuthorizationFailed',
          `The client '${clientId}' does not have authorization to perform action 'Microsoft.CostManagement/exports/read' over scope '/subscriptions/${request.subscriptionId}'.`,
        );
      }
      const name = request.exportName ?? subscription.cost_exports[0];
      if (!name || !subscription.cost_exports.includes(name)) {
        throw new Error(`subscription ${request.subscriptionId} has no FOCUS cost export`);
      }
      const layout: ExportLayout = { kind: 'azure-cost-export', directory: simulatedExportDirectory, name };
      return simulatedExportSession(
        {
          layout,
          keys: async () => (await current()).blobs ?? [],
          pathOf: (key) => simulatedBlobPath(dir, request.subscriptionId, key),
          etagOf: blobEtag,
          async ownedCommitments(at) {
            const owned = ((await current()).commitments ?? []).filter(
              (commitment) => Date.parse(commitment.end) > at,
            );
            // And what the tenant bought through its ARM, read as the ARM adapter reads it.
            const arm = (await readSimulatedCloud(dir)).azure[request.tenantId]?.arm;
            return [...owned, ...simulatedArmCommitments(arm, request.subscriptionId, at)];
          },
        },
        now,
      );
    },
  };
}
