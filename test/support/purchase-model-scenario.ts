import fc from 'fast-check';
import { queuesPurchase } from '../../shared/cloud/marketplace/marketplace';
import { loadCatalog } from '../../shared/domain/catalog/catalog';
import type { LineItem, Offer } from '../../shared/domain/engine';
import type { Principal } from '../../shared/domain/principal';

/** The exactly-once model's plan, offers and random histories (test/unit/app/purchases.exactly-once.test.ts). */

export const ORG = 'org-model';
export const PLAN = '0f6c1d2e-3b4a-4c5d-8e9f-0a1b2c3d4e5f';
export const USER: Principal = {
  kind: 'user',
  orgId: ORG,
  userId: 'buyer@example.com',
  role: 'user',
  scopes: ['*'],
};
export const VISIBILITY_SECONDS = 360;

/** Thrown where the model kills a Lambda invocation half-way. */
export class Crash extends Error {}

export const catalog = loadCatalog();
export const offers: Offer[] = [
  ...catalog
    .offers('aws')
    .filter((offer) => offer.scope.kind === 'instance' && offer.contractType === 'standard_ris')
    .slice(0, 2),
  ...catalog
    .offers('aws')
    .filter((offer) => offer.scope.kind === 'family')
    .slice(0, 1),
  ...catalog
    .offers('aws')
    .filter((offer) => offer.scope.kind === 'spend')
    .slice(0, 1),
  // RDS: no queued purchase, so a delayed line of it waits for its start (docs/purchases.md).
  ...catalog
    .offers('aws')
    .filter((offer) => !queuesPurchase(offer) && offer.contractType === 'db_ris')
    .slice(0, 1),
];

/** When the model's history begins; delayed lines start some seconds after it. */
export const HISTORY_START = Date.parse('2026-11-24T10:00:00Z');

export function lineItemOf(offer: Offer, index: number, startsAt: string | null): LineItem {
  const spend = offer.scope.kind === 'spend';
  // 8 units: a whole number of instances of some size of any family.
  const quantity = spend ? 0 : offer.scope.kind === 'family' ? 8 : 2;
  return {
    id: `line-${index}`,
    offer_id: offer.id,
    account_id: '123456789012',
    is_selected: true,
    selected_quantity: quantity,
    selected_commitment: spend ? 1.5 : 0,
    offer: { region: spend ? 'global' : offer.scope.region },
    startsAt,
  } as unknown as LineItem;
}

export type Step =
  | { readonly kind: 'apply'; readonly concurrent: boolean }
  | { readonly kind: 'deliver'; readonly pick: number; readonly twice: boolean }
  | { readonly kind: 'duplicate'; readonly pick: number }
  | { readonly kind: 'crash'; readonly at: number; readonly after: boolean }
  | { readonly kind: 'loseAnswer'; readonly afterBuying: boolean }
  | { readonly kind: 'advance'; readonly seconds: number }
  | { readonly kind: 'sweep' };

export const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('apply' as const), concurrent: fc.boolean() }) },
  {
    weight: 6,
    arbitrary: fc.record({ kind: fc.constant('deliver' as const), pick: fc.nat(20), twice: fc.boolean() }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('duplicate' as const), pick: fc.nat(20) }) },
  {
    weight: 3,
    arbitrary: fc.record({ kind: fc.constant('crash' as const), at: fc.nat(14), after: fc.boolean() }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('loseAnswer' as const), afterBuying: fc.boolean() }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('advance' as const),
      seconds: fc.constantFrom(1, 30, 130, 400),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('sweep' as const) }) },
);

export const scenario = fc.record({
  lines: fc.integer({ min: 1, max: offers.length }),
  /** Lines whose offer the provider refuses. */
  refused: fc.array(fc.boolean(), { minLength: offers.length, maxLength: offers.length }),
  /** An upfront cap every plan here exceeds, set by the operator after the apply, or none. */
  capped: fc.boolean(),
  /** Per line: seconds after the history begins that it starts (a renewal), or null: bought now. */
  delays: fc.array(fc.constantFrom(null, 30, 400, 3000), {
    minLength: offers.length,
    maxLength: offers.length,
  }),
  steps: fc.array(step, { maxLength: 25 }),
});
export type Scenario = typeof scenario extends fc.Arbitrary<infer S> ? S : never;
