/**
 * The commitments chart as SVG (docs/plans-api.md, "The chart as SVG"): asked for with
 * `format=svg`, or with an `Accept` header naming `image/svg+xml` and no `format`. JSON stays the
 * default, also for `Accept: *\/*`.
 */
export function wantsPicture(format: 'json' | 'svg' | undefined, accept: string | undefined): boolean {
  if (format !== undefined) return format === 'svg';
  return (accept ?? '')
    .split(',')
    .some((range) => range.split(';')[0]?.trim().toLowerCase() === 'image/svg+xml');
}

/**
 * The picture's headers: its exact type, never sniffed as something else, and a policy under
 * which nothing in it may run or load (it holds no script or reference; this keeps it so).
 */
export const chartPictureHeaders: Readonly<Record<string, string>> = {
  'content-type': 'image/svg+xml',
  'x-content-type-options': 'nosniff',
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'; sandbox",
  'cache-control': 'no-store',
};
