import { openInvocationScopes } from '../../local/local-invocation-scope';
import { localAzureClientId, localServiceAccountId } from '../../local/local-onboarding';
import type { LocalPurchasing } from '../../local/local-purchasing';
import { openLocalRuntime, readLocalConfig } from '../../local/local-runtime';
import { type AdminNeed, type AdminTarget, buildDependencies } from './admin-command';

/**
 * The CLI's local composition: the local store under LOCAL_DIR (also while `npm start` runs on it),
 * the purchase pipeline of `npm start` run in this process, the simulated cloud, no usage plan.
 * The pipeline and the usage sources are imported when a command needs them: a command on one
 * org loads the store and nothing else (docs/benchmarks.md, "Operator CLI").
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
      usageSources: async () => {
        const [{ simulatedAwsUsageSources }, { simulatedAzureUsageSources }] = await Promise.all([
          import('../../local/simulated-usage-sources'),
          import('../../local/simulated-azure-usage-sources'),
        ]);
        return {
          aws: simulatedAwsUsageSources(config.dir, serviceAccountId),
          azure: simulatedAzureUsageSources(config.dir, localAzureClientId),
        };
      },
      purchasing: async () => {
        const [
          { startLocalPurchasing },
          { purchasingCatalog },
          { stuckPurchases, sweepPurchases },
          { purchaseRecordView },
        ] = await Promise.all([
          import('../../local/local-purchasing'),
          import('../../shared/app/stored-catalog'),
          import('../../shared/app/purchase-sweep'),
          import('../../shared/contract/purchases'),
        ]);
        // The same pipeline as `npm start`, in this process, on the same context; the sweep's
        // timer never fires during a command.
        const pipeline = await startLocalPurchasing({
          ctx: runtime.ctx,
          invocationScoped,
          dir: config.dir,
          sweepIntervalMs: 3_600_000,
        });
        local = pipeline;
        const ctx = {
          ...runtime.ctx,
          purchaseQueue: pipeline.queue,
          catalog: purchasingCatalog(runtime.ctx.repos.catalog),
        };
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
