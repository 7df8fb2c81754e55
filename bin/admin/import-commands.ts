import { importCommitments } from '../../shared/app/import-commitments';
import type { ImportProgress, ImportRequest } from '../../shared/app/import-files';
import { defaultImportLeaseMs, type ImportSessionOptions } from '../../shared/app/import-sessions';
import {
  type ExportImportSummary,
  importUsage,
  importUsageExport,
  type UsageImportSummary,
} from '../../shared/app/import-usage';
import type { AppContext } from '../../shared/app/ports';
import { repairFutureUsage } from '../../shared/app/repair-usage';
import { cloudProviders } from '../../shared/domain/cloud-providers';
import type { Provider } from '../../shared/domain/engine';
import { type ImportFormat, importFormats } from '../../shared/domain/usage/exports/export-formats';
import {
  type AdminCommand,
  type CommandInput,
  defineCommand,
  type OptionSpec,
  optional,
  required,
  UsageError,
} from './admin-command';
import { inputFileError, openInputFile } from './input-file';

/**
 * Imports (docs/import.md): files streamed into an org's usage or commitments, progress on
 * stderr, a file with any bad row rejected whole.
 */

type Options = CommandInput['options'];

/** How an import treats another open import of the org and provider, and its own lease. */
const sessionOptionSpecs: readonly OptionSpec[] = [
  {
    name: 'take-over',
    help: "begin even while another import of the org and provider is open; that one stops at its next write (use it only when that import's process has stopped)",
  },
  {
    name: 'lease-seconds',
    value: '<n>',
    help: `how long this import may go without writing before it counts as abandoned (default ${defaultImportLeaseMs / 1000}); it renews the lease while it writes`,
  },
];

/** --take-over and --lease-seconds. */
function sessionOptions(options: Options): ImportSessionOptions {
  const lease = options['lease-seconds'];
  let leaseMs: number | undefined;
  if (lease !== undefined) {
    const seconds = Number(lease);
    if (typeof lease !== 'string' || !Number.isInteger(seconds) || seconds < 1) {
      throw new UsageError(`--lease-seconds must be a whole number of seconds >= 1; got ${lease}`);
    }
    leaseMs = seconds * 1000;
  }
  return { takeOver: options['take-over'] === true, ...(leaseMs === undefined ? {} : { leaseMs }) };
}

/** Prints import progress on stderr: file reading and writing on large files, then each provider's plans. */
function progressPrinter(bytesRead: () => number | undefined): (progress: ImportProgress) => void {
  let large = false;
  return (progress) => {
    if (progress.stage === 'reading') {
      large = true;
      const bytes = bytesRead();
      console.error(
        `read ${progress.rows} rows${bytes === undefined ? '' : ` (${(bytes / 1e6).toFixed(1)} MB)`}...`,
      );
    } else if (progress.stage === 'planning') {
      // Computing plans takes seconds even after a small file.
      console.error(`computing ${progress.provider} plans...`);
    } else if (large) {
      const what = progress.month ? `usage of ${progress.month}` : 'commitments';
      console.error(`writing ${progress.provider} ${what}...`);
    }
  };
}

/** Runs an import of the file named by --file into the org named by --org, streaming its records. */
async function importFile<T>(options: Options, run: (request: ImportRequest) => Promise<T>): Promise<T> {
  const orgId = required(options, 'org');
  const path = required(options, 'file');
  const handle = await openInputFile(path);
  const stream = handle.createReadStream();
  const { readCsvRecords } = await import('../../shared/exports/csv-records');
  try {
    return await run({
      orgId,
      records: readCsvRecords(stream),
      onProgress: progressPrinter(() => stream.bytesRead),
      ...sessionOptions(options),
    });
  } finally {
    stream.destroy();
  }
}

/**
 * import-usage: the project's usage CSV through its line reader, a billing export (CUR 2.0,
 * legacy CUR, FOCUS; Parquet, CSV or gzip CSV) through the export readers.
 */
async function importUsageFile(
  ctx: AppContext,
  options: Options,
): Promise<UsageImportSummary | ExportImportSummary> {
  const format = optional(options, 'format') as ImportFormat | undefined;
  if (format === 'usage-csv') return importFile(options, (request) => importUsage(ctx, request));
  const orgId = required(options, 'org');
  const path = required(options, 'file');
  // The export readers (Parquet, CSV) load with the command: other commands skip them.
  const [{ fileExportSource }, { readExport }] = await Promise.all([
    import('../../shared/exports/file-export-source'),
    import('../../shared/exports/read-export'),
  ]);
  await (await openInputFile(path)).close();
  const source = await fileExportSource(path).catch((error: unknown) => {
    throw inputFileError(path, error);
  });
  try {
    const rows = await readExport(source, format);
    if (rows.format === 'usage-csv') return importFile(options, (request) => importUsage(ctx, request));
    return await importUsageExport(ctx, {
      orgId,
      rows,
      onProgress: progressPrinter(() => undefined),
      ...sessionOptions(options),
    });
  } finally {
    await source.close();
  }
}

const orgOption: OptionSpec = { name: 'org', value: '<org_id>', required: true };

export const importCommands: readonly AdminCommand[] = [
  defineCommand({
    name: 'import-usage',
    summary:
      "replace the org's hourly usage on the hours the file covers, per provider in the file; the file: the usage CSV, or a billing export (CUR 2.0, legacy CUR, FOCUS 1.0/1.2; Parquet, CSV or gzip CSV), detected from its columns",
    options: [
      orgOption,
      { name: 'file', value: '<file>', required: true },
      {
        name: 'format',
        value: '<format>',
        choices: importFormats,
        help: `${importFormats.join('|')}: overrides the format detected`,
      },
      ...sessionOptionSpecs,
    ],
    needs: ['store'],
    async run({ store }, { options }) {
      const summary = await importUsageFile(store.ctx, options);
      if ('warning' in summary && summary.warning) console.error(`warning: ${summary.warning}`);
      return {
        org_id: summary.orgId,
        ...('format' in summary
          ? {
              format: summary.format,
              used_rows: summary.usedRows,
              skipped: summary.skipped,
              skipped_examples: summary.skippedExamples,
              warning: summary.warning,
            }
          : {}),
        rows: summary.rows,
        providers: summary.providers.map((imported) => ({
          provider: imported.provider,
          rows: imported.rows,
          resources: imported.resources,
          first_hour: imported.firstHour,
          last_hour: imported.lastHour,
          hours: imported.hours,
          usage_version: imported.usageVersion,
          changed: imported.changed,
        })),
      };
    },
  }),
  defineCommand({
    name: 'import-commitments',
    summary: "replace the org's commitments of the providers the file names",
    options: [orgOption, { name: 'file', value: '<csv>', required: true }, ...sessionOptionSpecs],
    needs: ['store'],
    async run({ store }, { options }) {
      const summary = await importFile(options, (request) => importCommitments(store.ctx, request));
      return {
        org_id: summary.orgId,
        rows: summary.rows,
        providers: summary.providers.map((imported) => ({
          provider: imported.provider,
          commitments: imported.commitments,
          usage_version: imported.usageVersion,
        })),
      };
    },
  }),
  defineCommand({
    name: 'repair-usage',
    summary:
      "drop the provider's stored usage after the present hour (imported with future-dated rows), then compute its plans",
    options: [
      orgOption,
      { name: 'provider', value: '<provider>', required: true, choices: cloudProviders },
      ...sessionOptionSpecs,
    ],
    needs: ['store'],
    async run({ store }, { options }) {
      const repair = await repairFutureUsage(
        store.ctx,
        required(options, 'org'),
        required(options, 'provider') as Provider,
        sessionOptions(options),
      );
      return {
        org_id: repair.orgId,
        provider: repair.provider,
        repaired: repair.repaired,
        kept_until: repair.keptUntil,
        last_hour: repair.lastHour,
        usage_version: repair.usageVersion,
      };
    },
  }),
];
