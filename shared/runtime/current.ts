import type { AppContext, ContextWith, Repositories, WithPlanComputation } from '../app/ports';
import type { RepositoryBuilders } from '../store/store';
import { createFunctionContext, type FunctionContextOptions } from './app-context';
import { createAwsTable, readAwsConfig } from './aws';

/**
 * The context the local server and tests install first, with every repository: each function's
 * context (below) answers it when there is one, so the very same handler modules serve both. On
 * Lambda none is installed.
 */
let installed: WithPlanComputation<AppContext> | undefined;

/**
 * Installs the local runtime's or a test's context. It computes plans in its own process
 * (`computingPlansHere`): the plan-serving functions use its computation instead of invoking the
 * plan-computation function.
 */
export function installAppContext(ctx: WithPlanComputation<AppContext>): void {
  installed = ctx;
}

/**
 * A function's own composition root: on Lambda, the context with only the repositories the
 * function's use cases name, built from the environment on first use; the installed context
 * when the local server or a test installed one. The builders are listed by the function's
 * handler, so the function bundles those repositories only.
 */
export function functionContext<K extends keyof Repositories>(
  builders: RepositoryBuilders<K>,
  options: FunctionContextOptions = {},
): () => ContextWith<K> {
  let built: ContextWith<K> | undefined;
  return () => {
    if (installed) return installed;
    built ??= createFunctionContext(createAwsTable(readAwsConfig(process.env)), builders, options);
    return built;
  };
}
