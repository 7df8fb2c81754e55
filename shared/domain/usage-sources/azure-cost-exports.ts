import { ValidationError } from '../errors';
import { hasDotSegment } from './export-files';

/**
 * Which Cost Management export of a subscription a usage sync reads (docs/usage-sync.md, Azure):
 * the one the org named, else the subscription's only FOCUS or actual-cost export, and where it delivers (a
 * container of a storage account, under a root folder).
 */

/** An export of `GET .../providers/Microsoft.CostManagement/exports` (the fields read). */
export interface CostManagementExport {
  readonly name?: string;
  readonly properties?: {
    /** `Csv` or `Parquet`. */
    readonly format?: string;
    readonly definition?: { readonly type?: string };
    readonly deliveryInfo?: {
      readonly destination?: {
        /** The storage account's resource id. */
        readonly resourceId?: string;
        readonly container?: string;
        readonly rootFolderPath?: string;
      };
    };
  };
}

/** Where an export delivers. */
export interface AzureCostExport {
  readonly name: string;
  readonly storageAccount: string;
  readonly container: string;
  /** The root folder path; empty: the container's root. */
  readonly directory: string;
}

/** An Azure storage account's name, as Azure allows it. */
const storageAccountName = /^[a-z0-9]{3,24}$/;

/** The export types whose rows the import reads: FOCUS and actual cost (docs/import.md). */
export const readableExportTypes = ['FocusCost', 'ActualCost'] as const;

const readable = (entry: CostManagementExport) =>
  (readableExportTypes as readonly string[]).includes(entry.properties?.definition?.type ?? '');

/** The export to read, or a ValidationError naming why there is none. */
export function azureCostExportOf(
  exports: readonly CostManagementExport[],
  subscription: { readonly subscriptionId: string; readonly exportName: string | null },
): AzureCostExport {
  const where = `subscription ${subscription.subscriptionId}`;
  let chosen: CostManagementExport | undefined;
  if (subscription.exportName !== null) {
    chosen = exports.find((entry) => entry.name === subscription.exportName);
    if (!chosen)
      throw new ValidationError(`${where} has no Cost Management export ${subscription.exportName}`);
    if (!readable(chosen)) {
      throw new ValidationError(
        `export ${subscription.exportName} of ${where} is of type ${chosen.properties?.definition?.type}; the sync reads ${readableExportTypes.join(', ')}`,
      );
    }
  } else {
    const candidates = exports.filter(readable);
    if (candidates.length === 0) {
      throw new ValidationError(
        `${where} has no FOCUS or actual-cost export (type ${readableExportTypes.join(' or ')}) among ${exports.length} exports`,
      );
    }
    if (candidates.length > 1) {
      throw new ValidationError(
        `${where} has ${candidates.length} FOCUS or actual-cost exports (${candidates.map((entry) => entry.name).join(', ')}): the sync reads one`,
      );
    }
    chosen = candidates[0] as CostManagementExport;
  }
  const destination = chosen.properties?.deliveryInfo?.destination ?? {};
  const storageAccount = /\/storageAccounts\/([^/]+)$/i.exec(destination.resourceId ?? '')?.[1];
  if (!chosen.name || !storageAccount || !destination.container) {
    throw new ValidationError(`export ${chosen.name} of ${where} names no storage account and container`);
  }
  // The account name becomes the Blob host the storage token is sent to: only a name Azure could
  // have given (3 to 24 lower-case letters and digits) is used, never `evil.example#`.
  if (!storageAccountName.test(storageAccount)) {
    throw new ValidationError(
      `export ${chosen.name} of ${where} names storage account ${JSON.stringify(storageAccount)}, which is no Azure storage account name (3 to 24 lower-case letters and digits)`,
    );
  }
  if (hasDotSegment(destination.rootFolderPath ?? '')) {
    throw new ValidationError(
      `export ${chosen.name} of ${where} has a root folder path with a . or .. segment`,
    );
  }
  return {
    name: chosen.name,
    storageAccount,
    container: destination.container,
    directory: destination.rootFolderPath ?? '',
  };
}
