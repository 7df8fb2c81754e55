import { loadCatalog } from '../domain/catalog/catalog';
import { createCommitmentCsvParser } from '../domain/commitments/commitment-csv';
import type { ExistingCommitment, Provider } from '../domain/engine/model';
import { type ImportRequest, readImportFile, refreshImportedPlans, requireOrg } from './import-files';
import type { AppContext } from './ports';

/** What an import stored of one provider. */
export interface ProviderCommitmentImport {
  readonly provider: Provider;
  readonly commitments: number;
  /** The provider's plan-input version after the import; plans of earlier versions are stale. */
  readonly usageVersion: number;
}

export interface CommitmentImportSummary {
  readonly orgId: string;
  readonly rows: number;
  /** In the order aws, azure, gcp. */
  readonly providers: readonly ProviderCommitmentImport[];
}

/**
 * Imports the commitments an org owns from a CSV file (docs/import.md). The whole file is
 * validated first: a file with any bad row is rejected with a CsvImportError and nothing is
 * stored. Then the file's commitments replace all of the org's commitments of each provider it
 * names (other providers' are kept), and those providers' plans become stale; at the end they are
 * computed again. Run again after a failure half-way, the same file completes the import.
 */
export async function importCommitments(
  ctx: AppContext,
  request: ImportRequest,
): Promise<CommitmentImportSummary> {
  const { orgId, onProgress } = request;
  await requireOrg(ctx, orgId);
  const parsed = await readImportFile(request, createCommitmentCsvParser(orgId, loadCatalog()));
  const providers: ProviderCommitmentImport[] = [];
  for (const { provider, commitments } of parsed.providers) {
    onProgress?.({ stage: 'writing', provider, month: null });
    providers.push(await storeProviderCommitments(ctx, orgId, provider, commitments));
  }
  await refreshImportedPlans(
    ctx,
    request,
    providers.map((imported) => imported.provider),
  );
  return { orgId, rows: parsed.rows, providers };
}

/**
 * Makes `commitments` the org's commitments of one provider and marks the provider's plans
 * stale: the store step of every commitment import (CSV files, the local demo).
 */
export async function storeProviderCommitments(
  ctx: AppContext,
  orgId: string,
  provider: Provider,
  commitments: readonly ExistingCommitment[],
): Promise<ProviderCommitmentImport> {
  const usageVersion = await ctx.repos.usage.beginImport(orgId, provider, ctx.clock.now().toISOString());
  await ctx.repos.commitments.replaceCommitments(orgId, provider, commitments);
  await ctx.repos.usage.finishImport(
    orgId,
    provider,
    usageVersion,
    { kind: 'commitments', commitments: commitments.length },
    ctx.clock.now().toISOString(),
  );
  return { provider, commitments: commitments.length, usageVersion };
}
