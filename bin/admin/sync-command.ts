import { type SyncProgress, syncUsage, type UsageSyncContext } from '../../shared/app/usage-sync';
import { ValidationError } from '../../shared/domain/errors';
import { skippedRowsText } from '../../shared/domain/usage/exports/skipped-rows';
import { syncExportReaders } from '../../shared/exports/read-export';
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

export const syncCommand: AdminCommand = defineCommand({
  name: 'sync',
  summary:
    "read the org's connected AWS account (or Azure subscription) now: the export's new or changed billing periods and the owned reservations and savings plans, then compute its plans (docs/usage-sync.md)",
  options: [
    { name: 'org', value: '<org_id>', required: true },
    { name: 'provider', value: 'aws|azure', help: 'the cloud to read (default aws)' },
  ],
  needs: ['store', 'usageSources'],
  async run({ store, usageSources }, { options }) {
    const orgId = required(options, 'org');
    const provider = options.provider ?? 'aws';
    if (provider !== 'aws' && provider !== 'azure')
      throw new ValidationError(`--provider must be aws or azure; got ${String(provider)}`);
    const ctx: UsageSyncContext = {
      ...store.ctx,
      awsSources: usageSources.aws,
      azureSources: usageSources.azure,
      ...syncExportReaders,
    };
    const synced = await syncUsage(ctx, { orgId, provider, onProgress: printProgress });
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
        },
      ],
    };
  },
});
