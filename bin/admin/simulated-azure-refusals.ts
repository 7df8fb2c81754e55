import type { SimulatedArmBehaviour } from '../../local/simulated-arm';
import { changeSimulatedCloud } from '../../local/simulated-cloud';
import { type CommandInput, UsageError } from './admin-command';
import { listOption } from './list-option';

/** The calls of a simulated Azure subscription `--deny` and `--throttle` name. */
export const azureCalls = ['purchase'] as const;

/**
 * `--deny purchase`, `--allow purchase`, `--throttle purchase|none`: how the simulated tenant's
 * ARM answers the purchases billed to the subscription (local/simulated-arm.ts). Answers the
 * subscription's settings, or null when no such option was given.
 */
export async function changeAzureRefusals(
  dir: string,
  subscriptionId: string,
  options: CommandInput['options'],
) {
  const deny = listOption(options, 'deny', azureCalls);
  const allow = listOption(options, 'allow', azureCalls);
  const throttle = listOption(options, 'throttle', azureCalls);
  if (!deny && !allow && !throttle) return null;
  let settings: SimulatedArmBehaviour = {};
  await changeSimulatedCloud(dir, (cloud) => {
    const subscription = Object.values(cloud.azure)
      .map((tenant) => tenant.subscriptions[subscriptionId])
      .find((each) => each !== undefined);
    if (!subscription) {
      throw new UsageError(`no simulated Azure subscription ${subscriptionId}: add it with --tenant first`);
    }
    const purchase = { ...subscription.purchase };
    if (allow?.includes('purchase')) delete purchase.deny;
    if (deny?.includes('purchase')) purchase.deny = true;
    if (throttle) {
      if (throttle.includes('purchase')) purchase.throttle = 'always';
      else delete purchase.throttle;
    }
    subscription.purchase = purchase;
    settings = purchase;
  });
  return settings;
}
