import * as z from 'zod/mini';
import { chartFilterFields } from '../domain/chart/chart-filter';
import { cloudProvider } from './enums';
import { calendarDate } from './formats';
import { dateParam, jsonParam, singleValue } from './query';
import { described, named } from './schema-registry';

/** The commitments chart (#10): its query, points and response. */

export const chartPoint = /* @__PURE__ */ named(
  'CommitmentChartPoint',
  () =>
    z.object({
      date: described(calendarDate, 'the day, or the first day of the month for monthly points'),
      remaining_commit: z.number(),
      locked_commit: z.number(),
      unlocked_commit: z.number(),
      savings: z.number(),
      net_savings: z.number(),
      utilization: z.number(),
      unutilized_commit: z.number(),
      is_projection: described(z.boolean(), 'true for points after today'),
    }),
  'One point of the commitments chart (USD)',
);
export type ChartPoint = z.infer<typeof chartPoint>;

export const chartResponse = /* @__PURE__ */ named(
  'CommitmentChart',
  () => z.object({ data: z.array(chartPoint) }),
  'Daily points for ranges up to 92 days, monthly points beyond',
);
export type ChartResponse = z.infer<typeof chartResponse>;

/** What the chart answers as: the points (JSON, the default) or a picture of them. */
export const chartFormats = ['json', 'svg'] as const;

/** Most criteria one filter may hold, and most values one `in`/`not_in` criterion may list. */
export const maxChartFilterCriteria = 20;
export const maxChartFilterValues = 100;

const chartFilterField = /* @__PURE__ */ z.lazy(() => z.enum(chartFilterFields));

/** One criterion: `eq`/`ne` compare with one value, `in`/`not_in` with a list of values. */
const chartFilterCriterion = /* @__PURE__ */ named('ChartFilterCriterion', () =>
  z.discriminatedUnion('op', [
    z.strictObject({ field: chartFilterField, op: z.enum(['eq', 'ne']), value: z.string() }),
    z.strictObject({
      field: chartFilterField,
      op: z.enum(['in', 'not_in']),
      value: z.array(z.string()).check(z.minLength(1), z.maxLength(maxChartFilterValues)),
    }),
  ]),
);
export type ChartFilterCriterion = z.infer<typeof chartFilterCriterion>;

/** One criterion or a list of them (all must hold), read as a list. */
const chartFilter = /* @__PURE__ */ z.lazy(() =>
  described(
    z.pipe(
      z.union([
        chartFilterCriterion,
        z.array(chartFilterCriterion).check(z.minLength(1), z.maxLength(maxChartFilterCriteria)),
      ]),
      z.transform((filter: ChartFilterCriterion | ChartFilterCriterion[]) =>
        Array.isArray(filter) ? filter : [filter],
      ),
    ),
    'criteria the commitments must all meet: one `{field, op, value}` object or an array of them',
  ),
);

export const chartQuery = /* @__PURE__ */ z.lazy(() =>
  z
    .strictObject({
      filter: z.optional(jsonParam(chartFilter)),
      provider: z.optional(singleValue(cloudProvider)),
      start_date: z.optional(dateParam()),
      end_date: z.optional(dateParam()),
      format: z.optional(
        described(
          singleValue(z.enum(chartFormats)),
          'svg: the same points as an SVG picture (image/svg+xml), as `Accept: image/svg+xml` asks; json (the default): the points',
        ),
      ),
    })
    .check(
      z.refine((query) => !query.start_date || !query.end_date || query.start_date <= query.end_date, {
        path: ['end_date'],
        message: 'must not be before start_date',
      }),
    ),
);
export type ChartQuery = z.infer<typeof chartQuery>;
