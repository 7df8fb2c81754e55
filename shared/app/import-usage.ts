import { loadCatalog } from '../domain/catalog/catalog';
import type { Provider } from '../domain/engine/model';
import type { ProviderUsage } from '../domain/usage/imported-usage';
import { isoHour } from '../domain/usage/local-time';
import { createUsageCsvParser } from '../domain/usage/usage-csv';
import { type ImportRequest, readImportFile, refreshImportedPlans, requireOrg } from './import-files';
import type { AppContext } from './ports';

/** What an import stored of one provider. */
export interface ProviderUsageImport {
  readonly provider: Provider;
  readonly rows: number;
  readonly resources: number;
  /** The covered hours: from the first to the last hour (ISO 8601 hour starts) of the file's rows. */
  readonly firstHour: string;
  readonly lastHour: string;
  readonly hours: number;
  /** The provider's plan-input version after the import; plans of earlier versions are stale. */
  readonly usageVersion: number;
}

export interface UsageImportSummary {
  readonly orgId: string;
  readonly rows: number;
  /** In the order aws, azure, gcp. */
  readonly providers: readonly ProviderUsageImport[];
}

/**
 * Imports an org's hourly usage from a CSV file (docs/import.md). The whole file is validated
 * first: a file with any bad row is rejected with a CsvImportError and nothing is stored. Then,
 * per provider in the file, the stored usage of every resource is replaced on the hours the file
 * covers for that provider, and the provider's plans become stale; at the end they are computed
 * again. Run again after a failure half-way, the same file completes the import.
 */
export async function importUsage(ctx: AppContext, request: ImportRequest): Promise<UsageImportSummary> {
  const { orgId, onProgress } = request;
  await requireOrg(ctx, orgId);
  const parsed = await readImportFile(request, createUsageCsvParser(loadCatalog()));
  const providers: ProviderUsageImport[] = [];
  for (const usage of parsed.providers)
    providers.push(await storeProviderUsage(ctx, orgId, usage, onProgress));
  await refreshImportedPlans(
    ctx,
    request,
    providers.map((imported) => imported.provider),
  );
  return { orgId, rows: parsed.rows, providers };
}

/**
 * Replaces the org's stored usage of one provider on the hours `usage` covers and marks the
 * provider's plans stale: the store step of every usage import (CSV files, the local demo).
 */
export async function storeProviderUsage(
  ctx: AppContext,
  orgId: string,
  usage: ProviderUsage,
  onProgress?: ImportRequest['onProgress'],
): Promise<ProviderUsageImport> {
  const { provider, covered } = usage;
  const usageVersion = await ctx.repos.usage.beginImport(orgId, provider, ctx.clock.now().toISOString());
  await ctx.repos.usage.replaceCoveredHours(orgId, usage, usageVersion, (month) =>
    onProgress?.({ stage: 'writing', provider, month }),
  );
  const resources = usage.series.length;
  await ctx.repos.usage.finishImport(
    orgId,
    provider,
    usageVersion,
    { kind: 'usage', covered, resources },
    ctx.clock.now().toISOString(),
  );
  return {
    provider,
    rows: usage.rows,
    resources,
    firstHour: isoHour(covered.firstHour),
    lastHour: isoHour(covered.lastHour),
    hours: covered.lastHour - covered.firstHour + 1,
    usageVersion,
  };
}
