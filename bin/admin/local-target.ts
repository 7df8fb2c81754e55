import { openInvocationScopes } from '../../local/local-invocation-scope';
import { localAzureClientId, localServiceAccountId } from '../../local/local-onboarding';
import { type LocalPurchasing, startLocalPurchasing } from '../../local/local-purchasing';
import { openLocalRuntime, readLocalConfig } from '../../local/local-runtime';
import { simulatedAzureUsageSources } from '../../local/simulated-azure-usage-sources';
import { simulatedAwsUsageSources } from '../../local/simulated-usage-sources';
import { bundledCatalog } from '../../shared/app/bundled-catalog';
import { stuckPurchases, sweepPurchases } from '../../shared/app/purchase-sweep';
import { purchaseRecordView } from '../../shared/contract/purchases';
import { type AdminNeed, type AdminTarget, buildDependencies } from './admin-command';

/**
 * The CLI's local composition: the local store under LOCAL_DIR (also while `npm start` runs on it),
 * the purchase pipeline of `npm start` run in this process, the simulated cloud, no usage plan.
 */
export async function openLocalTarget(
  env: NodeJS.ProcessEnv,
  needs: readonly AdminNeed[],
): Promise<AdminTarget> {
  // Before any AWS SDK call: the purchase pipeline runs its invocations in scopes of their own.
  const invocationScoped = await openInvocationScopes(env);
  const config = readLocalConfig(env);
  const serviceAccountId = env.SERVICE_AWS_ACCOUNT_ID ?? localServiceAccountId;
  const runtime = await openLocalRuntime(config);
  let local: LocalPurchasing | null = null;
  const close = async () => {
    await local?.close();
    await runtime.close();
  };
  try {
    const dependencies = await buildDependencies(needs, {
      store: () => ({ ctx: runtime.ctx, table: runtime.table }),
      usagePlanKeys: () => null,
      simulatedCloud: () => ({ dir: config.dir, serviceAccountId }),
      usageSources: () => ({
        aws: simulatedAwsUsageSources(config.dir, serviceAccountId),
        azure: simulatedAzureUsageSources(config.dir, localAzureClientId),
      }),
      purchasing: async () => {
        // The same pipeline as `npm start`, in this process, on the same context; the sweep's
        // timer never fires during a command.
        const pipeline = await startLocalPurchasing({
          ctx: runtime.ctx,
          invocationScoped,
          dir: config.dir,
          sweepIntervalMs: 3_600_000,
        });
        local = pipeline;
        const ctx = { ...runtime.ctx, purchaseQueue: pipeline.queue, catalog: bundledCatalog };
        return {
          ctx,
          deadLetters: async () => (await stuckPurchases(ctx)).map(purchaseRecordView),
          redrive: async () => ({ ...(await sweepPurchases(ctx, 0)) }),
          finish: () => pipeline.queue.idle(),
        };
      },
    });
    return { dependencies, close };
  } catch (error) {
    await close();
    throw error;
  }
}
