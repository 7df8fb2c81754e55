import type { AppContext, ContextWith, Repositories } from '../app/ports';
import type { RepositoryBuilders } from '../store/store';
import { createFunctionContext, type FunctionContextOptions } from './app-context';
import { createAwsAppContext, createAwsTable, readAwsConfig } from './aws';

/**
 * The context handlers run with. On Lambda it is built from the environment on first use; the
 * local server and tests install theirs first (with every repository), so the very same handler
 * modules serve both.
 */
let installed: AppContext | undefined;

export function installAppContext(ctx: AppContext): void {
  installed = ctx;
}

/** The context with every repository (the SQS consumers). */
export function appContext(): AppContext {
  installed ??= createAwsAppContext(readAwsConfig(process.env));
  return installed;
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
