import { localServiceAccountId } from '../../local/local-onboarding';
import { readLocalConfig } from '../../local/local-runtime';
import { simulatedAwsUsageSources } from '../../local/simulated-usage-sources';
import type { AppContext } from '../../shared/app/ports';
import type { AwsUsageSources } from '../../shared/app/ports/usage-sync';
import { type SyncProgress, syncUsage, type UsageSyncContext } from '../../shared/app/usage-sync';
import { awsUsageSources } from '../../shared/cloud/usage-sources/aws-usage-sources';
import { loadCatalog } from '../../shared/domain/catalog/catalog';
import { ValidationError } from '../../shared/domain/errors';
import { syncExportReaders } from '../../shared/exports/read-export';
import { configuredRegion } from '../../shared/runtime/aws';
import type { TableClient } from '../../shared/store/table-client';

/**
 * `admin sync --org <org_id> [--provider aws|azure]` (docs/usage-sync.md): runs the usage sync of
 * the org now, on the local simulated cloud, or through the real onboarding roles when TABLE_NAME
 * is set. Progress goes to stderr; the answer is one JSON line.
 */

export const syncUsageText = `  sync --org <org_id> [--provider aws|azure]              read the org's connected AWS account now: the
                                                           export's new or changed billing periods and the
                                                           owned reservations and savings plans, then
                                                           compute its plans (docs/usage-sync.md; Azure:
                                                           not built yet)`;

interface SyncTarget {
  readonly ctx: AppContext;
  readonly table: TableClient;
}

/** The sources a sync reads: the simulated cloud locally, the customers' accounts on AWS. */
function awsSources(): AwsUsageSources {
  if (process.env.TABLE_NAME) {
    const region = configuredRegion(process.env);
    if (!region) throw new ValidationError('AWS_REGION is not set');
    const regions = [
      ...new Set(
        loadCatalog()
          .pricedInstances('aws')
          .map((instance) => instance.region),
      ),
    ];
    return awsUsageSources({ region, reservationRegions: regions.sort() });
  }
  const serviceAccountId = process.env.SERVICE_AWS_ACCOUNT_ID ?? localServiceAccountId;
  return simulatedAwsUsageSources(readLocalConfig(process.env).dir, serviceAccountId);
}

function printProgress(progress: SyncProgress): void {
  if (progress.stage === 'listed') {
    console.error(`${progress.provider}: ${progress.read} files to read, ${progress.skipped} unchanged`);
  } else if (progress.stage === 'file') {
    console.error(`reading ${progress.key}...`);
  } else if (progress.stage === 'writing') {
    console.error(
      `writing ${progress.provider} ${progress.month ? `usage of ${progress.month}` : 'commitments'}...`,
    );
  } else if (progress.stage === 'commitments') {
    console.error(`${progress.provider}: ${progress.commitments} owned commitments`);
  } else if (progress.stage === 'planning') {
    console.error(`computing ${progress.provider} plans...`);
  }
}

export async function syncCommand(
  target: SyncTarget,
  options: Record<string, string | boolean | undefined>,
): Promise<object> {
  const orgId = options.org;
  if (typeof orgId !== 'string' || orgId === '') throw new ValidationError('--org is required');
  const provider = options.provider ?? 'aws';
  if (provider === 'azure') {
    throw new ValidationError('Azure usage sync is not built yet: only --provider aws syncs');
  }
  if (provider !== 'aws')
    throw new ValidationError(`--provider must be aws or azure; got ${String(provider)}`);
  const ctx: UsageSyncContext = {
    ...target.ctx,
    awsSources: awsSources(),
    ...syncExportReaders,
  };
  const synced = await syncUsage(ctx, { orgId, provider, onProgress: printProgress });
  return {
    org_id: orgId,
    providers: [
      {
        provider: synced.provider,
        files_read: synced.filesRead,
        files_skipped: synced.filesSkipped,
        rows: synced.rows,
        resources: synced.resources,
        commitments: synced.commitments,
        first_hour: synced.firstHour,
        last_hour: synced.lastHour,
      },
    ],
  };
}
