import type { SyncProgress, UsageSyncContext } from '../../shared/app/usage-sync';
import { skippedRowsText } from '../../shared/domain/usage/exports/skipped-rows';
import { type AdminCommand, defineCommand, required } from './admin-command';

/**
 * `admin sync --org <org_id> [--provider aws|azure]` (docs/usage-sync.md): runs the usage sync of
 * the org now, on the local simulated cloud, or when TABLE_NAME is set through the real onboarding
 * roles (AWS) and the service's Entra application (Azure); the sources are the compositions' to build. Progress goes to stderr; the answer is one
 * JSON line.
 */

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

/** The clouds a usage sync reads (GCP has no connected account: its usage is imported). */
const syncedProviders = ['aws', 'azure'] as const;

export const syncCommand: AdminCommand = defineCommand({
  name: 'sync',
  summary:
    "read the org's connected AWS account (or Azure subscription) now: the export's new or changed billing periods and the owned reservations and savings plans, then compute its plans (docs/usage-sync.md)",
  options: [
    { name: 'org', value: '<org_id>', required: true },
    {
      name: 'provider',
      value: '<provider>',
      choices: syncedProviders,
      help: 'aws or azure: the cloud to read (default aws)',
    },
  ],
  needs: ['store', 'usageSources'],
  async run({ store, usageSources }, { options }) {
    const orgId = required(options, 'org');
    // The parser refused any other value (choices), with the usage line.
    const provider = (options.provider ?? 'aws') as (typeof syncedProviders)[number];
    // The export readers (Parquet, CSV) and the sync load with the command: other commands skip them.
    const [{ syncUsage }, { syncExportReaders }] = await Promise.all([
      import('../../shared/app/usage-sync'),
      import('../../shared/exports/read-export'),
    ]);
    const ctx: UsageSyncContext = {
      ...store.ctx,
      awsSources: usageSources.aws,
      azureSources: usageSources.azure,
      ...syncExportReaders,
    };
    const synced = await syncUsage(ctx, { orgId, provider, onProgress: printProgress });
    for (const file of synced.refused) {
      console.error(`refused ${file.file} (${file.billingPeriod} not stored): ${file.reason}`);
    }
    if (synced.rows > 0 && synced.usedRows === 0) {
      console.error(
        `warning: none of the ${synced.rows} rows read could be used: ${skippedRowsText(synced.skipped)}`,
      );
    }
    return {
      org_id: orgId,
      providers: [
        {
          provider: synced.provider,
          files_read: synced.filesRead,
          files_skipped: synced.filesSkipped,
          rows: synced.rows,
          used_rows: synced.usedRows,
          skipped: synced.skipped.counts,
          skipped_examples: synced.skipped.examples,
          resources: synced.resources,
          commitments: synced.commitments,
          first_hour: synced.firstHour,
          last_hour: synced.lastHour,
          refused: synced.refused.map((file) => ({
            file: file.file,
            billing_period: file.billingPeriod,
            code: file.code,
            reason: file.reason,
          })),
        },
      ],
    };
  },
});
