import { describe, expect, it } from 'vitest';
import { scheduleExpressionProblem } from '../../lib/schedule-expression';

/**
 * The recurring EventBridge Scheduler expressions a schedule's context value may hold
 * (docs/deploy.md): what the scheduler would refuse at deploy time fails synthesis instead.
 */
describe('a schedule expression', () => {
  it.each([
    'rate(1 hour)',
    'rate(12 hours)',
    'rate(7 days)',
    'rate(30 minutes)',
    'cron(0 3 * * ? *)',
    'cron(0 4 ? * MON *)',
    'cron(15 10 ? * 6L 2026-2030)',
  ])('is taken: %s', (expression) => {
    expect(scheduleExpressionProblem(expression)).toBeNull();
  });

  it.each([
    ['weekly', /must be an EventBridge Scheduler expression for a recurring schedule/],
    ['at(2026-12-01T04:00:00)', /recurring schedule/],
    ['rate(0 hours)', /at least 1/],
    ['rate(1 hours)', /singular unit/],
    ['rate(2 day)', /plural/],
    ['rate(1 week)', /minute\(s\), hour\(s\) or day\(s\)/],
    ['cron(0 4 * * MON)', /6 fields/],
    ['cron(0 4 * * MON *)', /exactly one of day-of-month and day-of-week/],
    ['cron(0 4 ? * ? *)', /exactly one of day-of-month and day-of-week/],
  ])('is refused with the reason: %s', (expression, reason) => {
    expect(scheduleExpressionProblem(expression)).toMatch(reason);
  });
});
