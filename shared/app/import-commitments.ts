import { loadCatalog } from '../domain/catalog/catalog';
import { createCommitmentCsvParser } from '../domain/commitments/commitment-csv';
import type { ExistingCommitment, Provider } from '../domain/engine/shapes/model';
import { type ImportRequest, readImportFile, refreshImportedPlans, requireOrg } from './import-files';
import { inImportSessions, type OpenImport } from './import-sessions';
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
 * stored. Then, in a session of each provider it names (docs/import.md, Sessions), the file's commitments replace all of the org's commitments of each provider it
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
  const providers = await inImportSessions(
    ctx,
    orgId,
    parsed.providers.map((imported) => imported.provider),
    request,
    async (sessions) => {
      const stored: ProviderCommitmentImport[] = [];
      for (const [index, { provider, commitments }] of parsed.providers.entries()) {
        onProgress?.({ stage: 'writing', provider, month: null });
        stored.push(await writeProviderCommitments(ctx, orgId, sessions[index] as OpenImport, commitments));
      }
      return stored;
    },
  );
  await refreshImportedPlans(
    ctx,
    request,
    providers.map((imported) => imported.provider),
  );
  return { orgId, rows: parsed.rows, providers };
}

/**
 * Makes `commitments` the org's commitments of one provider and marks the provider's plans
 * stale, in a session of its own: the store step of the local demo.
 */
export async function storeProviderCommitments(
  ctx: AppContext,
  orgId: string,
  provider: Provider,
  commitments: readonly ExistingCommitment[],
): Promise<ProviderCommitmentImport> {
  return inImportSessions(ctx, orgId, [provider], {}, ([session]) =>
    writeProviderCommitments(ctx, orgId, session as OpenImport, commitments),
  );
}

/** Writes one provider's commitments under its open session, then ends the session. */
async function writeProviderCommitments(
  ctx: AppContext,
  orgId: string,
  session: OpenImport,
  commitments: readonly ExistingCommitment[],
): Promise<ProviderCommitmentImport> {
  await ctx.repos.commitments.replaceCommitments(orgId, session.provider, commitments);
  await session.finish({ kind: 'commitments', commitments: commitments.length });
  return { provider: session.provider, commitments: commitments.length, usageVersion: session.usageVersion };
}
