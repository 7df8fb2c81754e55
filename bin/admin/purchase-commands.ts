import { computingPlansHere } from '../../shared/app/plan-computation';
import { completePurchase, listPurchases, retryPurchase } from '../../shared/app/purchase-operations';
import { purchaseRecordView } from '../../shared/contract/purchases';
import {
  type AdminCommand,
  type CommandInput,
  defineCommand,
  optional,
  required,
  UsageError,
} from './admin-command';

/** Purchases (docs/purchases.md): what an operator looks at, retries and completes by hand. */

/** --quantity: a number more than 0, in the offer's unit; absent: undefined. */
function quantityOption(options: CommandInput['options']): number | undefined {
  const value = options.quantity;
  if (value === undefined) return undefined;
  const quantity = Number(value);
  if (typeof value !== 'string' || !Number.isFinite(quantity) || quantity <= 0) {
    throw new UsageError(`--quantity must be a number more than 0, in the offer's unit; got ${value}`);
  }
  return quantity;
}

const planAndLine = [
  { name: 'plan', value: '<plan_id>', required: true },
  { name: 'line', value: '<line_item_id>', required: true },
] as const;

export const purchaseCommands: readonly AdminCommand[] = [
  defineCommand({
    name: 'list-purchases',
    summary: "the org's purchase records (or one plan's)",
    options: [
      { name: 'org', value: '<org_id>', required: true },
      { name: 'plan', value: '<plan_id>' },
    ],
    needs: ['store'],
    async run({ store }, { options }) {
      const records = await listPurchases(store.ctx, required(options, 'org'), optional(options, 'plan'));
      return { purchases: records.map(purchaseRecordView) };
    },
  }),
  defineCommand({
    name: 'retry-purchase',
    summary:
      'queue a failed purchase again, with the same client token (a retry never buys twice); locally the purchase pipeline runs in this process and the command waits for it',
    options: planAndLine,
    needs: ['purchasing'],
    async run({ purchasing }, { options }) {
      const record = await retryPurchase(
        purchasing.ctx,
        required(options, 'plan'),
        required(options, 'line'),
      );
      await purchasing.finish();
      const current = await purchasing.ctx.repos.purchases.get(record.planId, record.lineItemId);
      return { purchase: purchaseRecordView(current ?? record) };
    },
  }),
  defineCommand({
    name: 'complete-purchase',
    summary:
      'record that an operator bought a manual purchase (guaranteed offers; Azure and GCP with MARKETPLACE=aws); the org owns it and its plans are recomputed. Locally nothing is manual: the simulated marketplace buys every offer, so there is no purchase to complete',
    options: [
      ...planAndLine,
      { name: 'reference', value: '<ref>', required: true },
      {
        name: 'quantity',
        value: '<n>',
        help: "what was bought, in the offer's unit, as the plan counts it: instances (instance reservations), normalized units (size-flexible ones, stored as instances of the size bought), $/h (savings plans); default: the planned quantity",
      },
    ],
    needs: ['purchasing'],
    async run({ purchasing }, { options }) {
      const record = await completePurchase(
        computingPlansHere(purchasing.ctx),
        required(options, 'plan'),
        required(options, 'line'),
        required(options, 'reference'),
        quantityOption(options),
      );
      return { purchase: purchaseRecordView(record) };
    },
  }),
  defineCommand({
    name: 'dead-letters',
    summary: 'purchase messages the queue gave up on (locally: the stuck purchases, what the DLQ would hold)',
    options: [{ name: 'redrive', help: 'send them back to the queue (locally: now, in this process)' }],
    needs: ['purchasing'],
    async run({ purchasing }, { options }) {
      if (options.redrive === true) {
        const redriven = await purchasing.redrive();
        await purchasing.finish();
        return redriven;
      }
      return { dead_letters: await purchasing.deadLetters() };
    },
  }),
];
