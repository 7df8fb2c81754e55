import { type CheckResult, check } from './checklist';

/** The Azure checklist (docs/onboarding.md), in the order it is answered. */
export const azureFeatures = [
  'admin_consent',
  'subscription_access',
  'cost_export',
  'reservation_purchase',
  'savings_plan_purchase',
] as const;
export type AzureFeature = (typeof azureFeatures)[number];

/** `Microsoft.Authorization/permissions` entries of the service principal on the subscription. */
export interface AzurePermission {
  readonly actions: readonly string[];
  readonly notActions: readonly string[];
}

/** Whether `action` matches an ARM action pattern (`*` matches any run of characters, case-insensitively). */
export function actionMatches(pattern: string, action: string): boolean {
  const source = pattern
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\/]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${source}$`, 'i').test(action);
}

/** Whether the permissions allow `action`: some entry's actions match it and none of its notActions do. */
export function permits(permissions: readonly AzurePermission[], action: string): boolean {
  return permissions.some(
    (entry) =>
      entry.actions.some((pattern) => actionMatches(pattern, action)) &&
      !entry.notActions.some((pattern) => actionMatches(pattern, action)),
  );
}

/** The actions buying needs: a reservation order, and a savings plan order. */
export const reservationPurchaseAction = 'Microsoft.Capacity/reservationOrders/write';
export const savingsPlanPurchaseAction = 'Microsoft.BillingBenefits/savingsPlanOrders/write';

export function purchaseChecks(permissions: readonly AzurePermission[]): CheckResult[] {
  return [
    permits(permissions, reservationPurchaseAction)
      ? check('reservation_purchase', 'available', `${reservationPurchaseAction} allowed`)
      : check(
          'reservation_purchase',
          'missing',
          `${reservationPurchaseAction} not allowed: assign the Reservation Purchaser role`,
        ),
    permits(permissions, savingsPlanPurchaseAction)
      ? check('savings_plan_purchase', 'available', `${savingsPlanPurchaseAction} allowed`)
      : check(
          'savings_plan_purchase',
          'missing',
          `${savingsPlanPurchaseAction} not allowed: assign the Savings plan Purchaser role`,
        ),
  ];
}

/** Every check after `admin_consent` when the app could not sign in to the tenant. */
export function checksWithoutConsent(reason: string): CheckResult[] {
  return azureFeatures
    .filter((feature) => feature !== 'admin_consent')
    .map((feature) => check(feature, 'unknown', `not checked: ${reason}`));
}
