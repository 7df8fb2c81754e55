import { type CheckResult, check } from './checklist';

/** What a child org has set up in the service itself (#21 `org_checklist`). */
export interface OrgSetup {
  readonly members: number;
  readonly providersWithUsage: readonly string[];
  readonly providersWithPlans: readonly string[];
  readonly offerLinks: readonly string[];
}

export const orgFeatures = [
  'users_invited',
  'usage_imported',
  'plans_available',
  'marketplace_link_set',
] as const;

export function orgChecklist(setup: OrgSetup): CheckResult[] {
  const list = (values: readonly string[]) => values.join(', ');
  return [
    setup.members > 0
      ? check('users_invited', 'available', `${setup.members} member(s)`)
      : check('users_invited', 'missing', 'no user invited yet'),
    setup.providersWithUsage.length > 0
      ? check('usage_imported', 'available', `usage of ${list(setup.providersWithUsage)}`)
      : check('usage_imported', 'missing', 'no usage imported yet'),
    setup.providersWithPlans.length > 0
      ? check('plans_available', 'available', `plans for ${list(setup.providersWithPlans)}`)
      : check('plans_available', 'missing', 'no plan computed yet'),
    setup.offerLinks.length > 0
      ? check('marketplace_link_set', 'available', `offer link for ${list(setup.offerLinks)}`)
      : check('marketplace_link_set', 'missing', 'no marketplace offer link set'),
  ];
}
