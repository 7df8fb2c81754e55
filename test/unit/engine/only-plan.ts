/** Plans of one profile worked by hand (the known-answer files' shared set-up). */
import { expect } from 'vitest';
import { computePlans } from '../../../shared/domain/engine/plans/plans';
import { hourly } from './builders';

/** 10 units in 6 hours of 10, 4 units in the other 4: F(k) = 1 for k <= 4, 0.6 for 5 <= k <= 10. */
export const TEN_THEN_FOUR = hourly(10, (hour) => (hour < 6 ? 10 : 4));

/** The one plan of an input with one profile. */
export function onlyPlan(input: Parameters<typeof computePlans>[0]) {
  const plans = computePlans(input).plans;
  expect(plans).toHaveLength(1);
  return plans[0] as (typeof plans)[number];
}
