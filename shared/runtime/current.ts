import type { AppContext } from '../app/ports';
import { createAwsAppContext, readAwsConfig } from './aws';

/**
 * The context handlers run with. On Lambda it is built from the environment on first use; the
 * local server and tests install theirs first, so the very same handler modules serve both.
 */
let installed: AppContext | undefined;

export function installAppContext(ctx: AppContext): void {
  installed = ctx;
}

export function appContext(): AppContext {
  installed ??= createAwsAppContext(readAwsConfig(process.env));
  return installed;
}
