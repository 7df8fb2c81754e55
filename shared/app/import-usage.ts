import { loadCatalog } from '../domain/catalog/catalog';
import type { Provider } from '../domain/engine/model';
import type { ProviderUsage } from '../domain/usage/imported-usage';
import { isoHour } from '../domain/usage/local-time';
import { createUsageCsvParser } from '../domain/usage/usage-csv';
import { type ImportRequest, readImportFile, refreshImportedPlans, requireOrg } from './import-files';
import { inImportSessions, type OpenImport } from './import-sessions';
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
 * first: a file with any bad row (a future-dated one too) is rejected with a CsvImportError and
 * nothing is stored. Then a session of each provider in the file is opened (refused while another
 * import of it is open, unless taken over), the stored usage of every resource is replaced on the
 * hours the file covers for that provider, and the provider's plans become stale; at the end they
 * are computed again. Run again after a failure half-way, the same file completes the import.
 */
export async function importUsage(ctx: AppContext, request: ImportRequest): Promise<UsageImportSummary> {
  const { orgId, onProgress } = request;
  await requireOrg(ctx, orgId);
  const parsed = await readImportFile(request, createUsageCsvParser(loadCatalog(), ctx.clock.now()));
  const providers = await inImportSessions(
    ctx,
    orgId,
    parsed.providers.map((usage) => usage.provider),
    request,
    async (sessions) => {
      const stored: ProviderUsageImport[] = [];
      // Every session's lease is renewed while any provider is written: the last provider's
      // session must not run out while the first ones are written.
      const keepAllAlive = async () => {
        await Promise.all(sessions.map((session) => session.keepAlive()));
      };
      for (const [index, usage] of parsed.providers.entries()) {
        const session = sessions[index] as OpenImport;
        stored.push(await writeProviderUsage(ctx, orgId, session, usage, keepAllAlive, onProgress));
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
 * Replaces the org's stored usage of one provider on the hours `usage` covers and marks the
 * provider's plans stale, in a session of its own: the store step of the local demo.
 */
export async function storeProviderUsage(
  ctx: AppContext,
  orgId: string,
  usage: ProviderUsage,
  onProgress?: ImportRequest['onProgress'],
): Promise<ProviderUsageImport> {
  return inImportSessions(ctx, orgId, [usage.provider], {}, ([session]) => {
    const open = session as OpenImport;
    return writeProviderUsage(ctx, orgId, open, usage, () => open.keepAlive(), onProgress);
  });
}

/**
 * Writes one provider's usage under its open session, calling `keepAlive` before each group of
 * writes (it renews the import's leases, and throws when one was taken over), then ends the session.
 */
async function writeProviderUsage(
  ctx: AppContext,
  orgId: string,
  session: OpenImport,
  usage: ProviderUsage,
  keepAlive: () => Promise<void>,
  onProgress?: ImportRequest['onProgress'],
): Promise<ProviderUsageImport> {
  const { provider, covered } = usage;
  let reportedMonth: string | undefined;
  await ctx.repos.usage.replaceCoveredHours(orgId, usage, session.usageVersion, async (month) => {
    if (month !== reportedMonth) onProgress?.({ stage: 'writing', provider, month });
    reportedMonth = month;
    await keepAlive();
  });
  const resources = usage.series.length;
  await session.finish({ kind: 'usage', covered, resources });
  return {
    provider,
    rows: usage.rows,
    resources,
    firstHour: isoHour(covered.firstHour),
    lastHour: isoHour(covered.lastHour),
    hours: covered.lastHour - covered.firstHour + 1,
    usageVersion: session.usageVersion,
  };
}
