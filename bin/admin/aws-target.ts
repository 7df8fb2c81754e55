import { purchasingCatalog } from '../../shared/app/stored-catalog';
import { ValidationError } from '../../shared/domain/errors';
import { createAppContext } from '../../shared/runtime/app-context';
import { configuredRegion, createAwsTable, readAwsConfig } from '../../shared/runtime/aws';
import { createAwsUsagePlanKeys } from '../../shared/runtime/aws-usage-plan';
import { awsUsageSourcesIn } from '../../shared/runtime/aws-usage-sources';
import { azureUsageSourcesFromEnvironment } from '../../shared/runtime/azure-usage-sources';
import { awsDeadLetters, awsPurchaseQueue } from '../../shared/runtime/purchasing';
import {
  type AdminNeed,
  type AdminStore,
  type AdminTarget,
  buildDependencies,
  SetupError,
} from './admin-command';

/**
 * The CLI's AWS composition, chosen by TABLE_NAME: the deployed table, the API's usage plan, the
 * purchase queue and its dead letters, and the customers' accounts through the onboarding roles.
 */
export async function openAwsTarget(
  env: NodeJS.ProcessEnv,
  needs: readonly AdminNeed[],
): Promise<AdminTarget> {
  const config = readAwsConfig(env);
  let store: AdminStore | null = null;
  const storeOf = (): AdminStore => {
    if (store === null) {
      const table = createAwsTable(config);
      store = { ctx: createAppContext(table), table };
    }
    return store;
  };
  const dependencies = await buildDependencies(needs, {
    store: storeOf,
    usagePlanKeys: () => {
      const keys = createAwsUsagePlanKeys(env, config);
      if (keys === null) {
        throw new SetupError(
          'USAGE_PLAN_ID is not set: the TenantUsagePlanId output of the API stack. Without it, the deployed API would refuse the key (403).',
        );
      }
      return keys;
    },
    simulatedCloud: () => {
      throw new SetupError('simulate-cloud changes the local simulated cloud: unset TABLE_NAME');
    },
    usageSources: () => {
      const region = configuredRegion(env);
      if (!region) throw new ValidationError('AWS_REGION is not set');
      return {
        aws: awsUsageSourcesIn(region),
        azure: azureUsageSourcesFromEnvironment(env),
      };
    },
    purchasing: () => {
      const { ctx } = storeOf();
      const deadLetters = awsDeadLetters(env);
      return {
        ctx: { ...ctx, purchaseQueue: awsPurchaseQueue(env), catalog: purchasingCatalog(ctx.repos.catalog) },
        deadLetters: async () =>
          (await deadLetters.list()).map((letter) => ({
            message_id: letter.messageId,
            purchase: letter.message,
            receive_count: letter.receiveCount,
            first_sent_at: letter.firstSentAt,
          })),
        redrive: async () => ({ redrive_task: await deadLetters.redrive() }),
        finish: async () => undefined,
      };
    },
  });
  return { dependencies, close: async () => undefined };
}
