import type { ContextWith, Repositories } from '../app/ports';
import type { RepositoryBuilders } from '../store/store';
import { createFunctionContext, type FunctionContextOptions } from './app-context';
import { createAwsTable, readAwsConfig } from './aws';

/**
 * `build` run on the first call and its value kept for the container; a build that throws is
 * tried again on the next call. How each function's AWS composition reads the environment and
 * creates its clients on the first invocation rather than at load.
 */
export function onFirstUse<T>(build: () => T): () => T {
  let built: T | undefined;
  return () => {
    built ??= build();
    return built;
  };
}

/**
 * A function's context on AWS: the repositories its use cases name (and no other, so its bundle
 * carries no other repository's code) on the table `TABLE_NAME` names, the real clock and random
 * ids, built from the environment on the first invocation.
 */
export function awsFunctionContext<K extends keyof Repositories>(
  builders: RepositoryBuilders<K>,
  options: FunctionContextOptions = {},
): () => ContextWith<K> {
  return onFirstUse(() =>
    createFunctionContext(createAwsTable(readAwsConfig(process.env)), builders, options),
  );
}
