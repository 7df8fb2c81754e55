import { localAzureClientId, localServiceAccountId } from '../../local/local-onboarding';
import { readLocalConfig } from '../../local/local-runtime';
import { simulatedAzureUsageSources } from '../../local/simulated-azure-usage-sources';
import { simulatedAwsUsageSources } from '../../local/simulated-usage-sources';
import type { AppContext } from '../../shared/app/ports';
import type { AwsUsageSources, AzureUsageSources } from '../../shared/app/ports/usage-sync';
import { type SyncProgress, syncUsage, type UsageSyncContext } from '../../shared/app/usage-sync';
import { awsUsageSources } from '../../shared/cloud/usage-sources/aws-usage-sources';
import { azureUsageSources } from '../../shared/cloud/usage-sources/azure-usage-sources';
import { clientSecretTokens, storageScope } from '../../shared/cloud/verifiers/azure-arm-probe';
import { ProviderError } from '../../shared/cloud/verifiers/provider-failure';
import { loadCatalog } from '../../shared/domain/catalog/catalog';
import { ValidationError } from '../../shared/domain/errors';
import { readExport } from '../../shared/exports/read-export';
import { configuredRegion } from '../../shared/runtime/aws';
import { secretsManagerSecret } from '../../shared/runtime/secrets-manager-secret';
import type { TableClient } from '../../shared/store/table-client';
import { createUsageSyncStateRepository } from '../../shared/store/usage-sync-states';

/**
 * `admin sync --org <org_id> [--provider aws|azure]` (docs/usage-sync.md): runs the usage sync of
 * the org now, on the local simulated cloud, or when TABLE_NAME is set through the real onboarding
 * roles (AWS) and the service's Entra application (Azure: AZURE_CLIENT_ID, AZURE_CLIENT_SECRET_ARN). Progress goes to stderr; the answer is one JSON line.
 */

export const syncUsageText = `  sync --org <org_id> [--provider aws|azure]              read the org's connected AWS account (or Azure
                                                           subscription) now: the export's new or changed
                                                           billing periods and the owned reservations and
                                                           savings plans, then compute its plans
                                                           (docs/usage-sync.md)`;

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

/** The Azure sources: the simulated cloud locally, the customers' tenants through the service's app on AWS. */
function azureSources(): AzureUsageSources {
  if (process.env.TABLE_NAME) {
    const clientId = process.env.AZURE_CLIENT_ID;
    const secretArn = process.env.AZURE_CLIENT_SECRET_ARN;
    if (!clientId || !secretArn) {
      return {
        connect: () =>
          Promise.reject(
            new ProviderError(
              'NotConfigured',
              'Azure is not configured in this deployment (AZURE_CLIENT_ID and AZURE_CLIENT_SECRET_ARN)',
            ),
          ),
      };
    }
    const clientSecret = secretsManagerSecret(secretArn);
    return azureUsageSources({
      armTokens: clientSecretTokens({ clientId, clientSecret }),
      storageTokens: clientSecretTokens({ clientId, clientSecret, scope: storageScope }),
    });
  }
  return simulatedAzureUsageSources(readLocalConfig(process.env).dir, localAzureClientId);
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
  if (provider !== 'aws' && provider !== 'azure')
    throw new ValidationError(`--provider must be aws or azure; got ${String(provider)}`);
  const ctx: UsageSyncContext = {
    ...target.ctx,
    syncStates: createUsageSyncStateRepository(target.table),
    awsSources: awsSources(),
    azureSources: azureSources(),
    openExport: (source) => readExport(source),
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
