import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Paths the CDK app bundles from, resolved from this file rather than the working directory, so
 * `cdk synth` and the infra tests find the same files wherever they are started.
 */
export const projectRoot = fileURLToPath(new URL('..', import.meta.url));

/**
 * Entry of a Lambda function: `functions/<name>/handler.ts`, exporting `handler`; a function
 * whose code differs by deployment setting has other entries beside it (e.g. `aws-handler.ts`).
 */
export function functionEntry(name: string, file = 'handler.ts'): string {
  return join(projectRoot, 'functions', name, file);
}
