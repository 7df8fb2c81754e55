/**
 * The schedule expressions the service's EventBridge Scheduler schedules take (docs/deploy.md):
 * recurring ones only, `rate(value unit)` or `cron(6 fields)`. Checked at synthesis, so a typo in
 * a context value fails `cdk synth` with the reason instead of `cdk deploy` half-way.
 */

const rateUnits = ['minute', 'hour', 'day'] as const;

/** Why EventBridge Scheduler would refuse `expression` as a recurring schedule; null when it takes it. */
export function scheduleExpressionProblem(expression: string): string | null {
  const rate = /^rate\((\d+) ([a-z]+)\)$/.exec(expression);
  if (rate) {
    const value = Number(rate[1]);
    const unit = rate[2] ?? '';
    const singular = unit.replace(/s$/, '');
    if (value < 1) return `a rate must be at least 1; got ${expression}`;
    if (!(rateUnits as readonly string[]).includes(singular)) {
      return `a rate's unit is minute(s), hour(s) or day(s); got ${expression}`;
    }
    // EventBridge Scheduler's own rule: rate(1 hour), rate(2 hours).
    if ((value === 1) !== (unit === singular)) {
      return `a rate of 1 takes a singular unit and any other a plural one; got ${expression}`;
    }
    return null;
  }
  const cron = /^cron\((.+)\)$/.exec(expression);
  if (cron) {
    const fields = (cron[1] ?? '').trim().split(/\s+/);
    if (fields.length !== 6) {
      return `a cron expression has 6 fields (minutes hours day-of-month month day-of-week year); got ${expression}`;
    }
    // Day-of-month and day-of-week cannot both be given: one of them is `?`.
    if ((fields[2] === '?') === (fields[4] === '?')) {
      return `a cron expression has \`?\` in exactly one of day-of-month and day-of-week; got ${expression}`;
    }
    return null;
  }
  return `must be an EventBridge Scheduler expression for a recurring schedule, cron(...) or rate(...); got ${expression}`;
}
