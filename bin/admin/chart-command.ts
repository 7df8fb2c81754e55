import { writeFile } from 'node:fs/promises';
import type { Principal } from '../../shared/domain/principal';
import { type AdminCommand, defineCommand, optional, required, UsageError } from './admin-command';
import { outputFileError } from './input-file';

/**
 * `admin chart --org <org_id> --out <file.svg>` (docs/plans-api.md, "The chart as SVG"): the
 * commitments chart (#10) the API answers for `Accept: image/svg+xml`, written to a file.
 */

/** The operator reads the org's chart with the read right of the org's own admin. */
function operatorReading(orgId: string): Principal {
  return { kind: 'user', orgId, userId: 'operator', role: 'admin', scopes: ['plans:read'] };
}

export const chartCommand: AdminCommand = defineCommand({
  name: 'chart',
  summary:
    "write the org's commitments chart (#10) as an SVG picture: savings, unused commitment and utilization per period, the commitment remaining; the last 30 days by default",
  options: [
    { name: 'org', value: '<org_id>', required: true },
    { name: 'out', value: '<file.svg>', required: true },
    { name: 'provider', value: '<provider>', choices: ['aws', 'azure', 'gcp'] },
    { name: 'start-date', value: '<YYYY-MM-DD>' },
    { name: 'end-date', value: '<YYYY-MM-DD>' },
  ],
  needs: ['store'],
  async run({ store }, { options }) {
    const orgId = required(options, 'org');
    const out = required(options, 'out');
    const [{ commitmentsChart }, { renderChartSvg }, { chartQuery }] = await Promise.all([
      import('../../shared/app/commitments-chart'),
      import('../../shared/domain/chart/chart-svg'),
      import('../../shared/contract/chart'),
    ]);
    // The API's own query rules (dates, their order, the provider), as a 422 would name them.
    const parsed = chartQuery.safeParse({
      ...(optional(options, 'provider') ? { provider: optional(options, 'provider') } : {}),
      ...(optional(options, 'start-date') ? { start_date: optional(options, 'start-date') } : {}),
      ...(optional(options, 'end-date') ? { end_date: optional(options, 'end-date') } : {}),
    });
    if (!parsed.success) {
      const [issue] = parsed.error.issues;
      throw new UsageError(`--${String(issue?.path[0] ?? '').replace('_', '-')}: ${issue?.message}`);
    }
    const query = parsed.data;
    const points = await commitmentsChart(store.ctx, operatorReading(orgId), orgId, {
      provider: query.provider,
      criteria: [],
      startDate: query.start_date,
      endDate: query.end_date,
    });
    const svg = renderChartSvg(points, { scope: query.provider ?? 'all providers' });
    await writeFile(out, svg).catch((error: unknown) => {
      throw outputFileError(out, error);
    });
    return {
      org_id: orgId,
      out,
      points: points.length,
      first_date: points[0]?.date ?? null,
      last_date: points.at(-1)?.date ?? null,
    };
  },
});
