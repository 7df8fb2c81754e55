import { InvokeStore } from '@aws/lambda-invoke-store';
import type { ProxyHandler } from '../shared/http/group-handler';

/**
 * Lambda runs one invocation at a time per environment unless it announces more through this
 * variable; Powertools Logger then keeps each invocation's keys (the request id among them) in
 * the InvokeStore instead of on the logger. The value is any positive number: the local server
 * sets no cap of its own.
 */
const maxConcurrencyVariable = 'AWS_LAMBDA_MAX_CONCURRENCY';
const localMaxConcurrency = '1024';

/**
 * The local server runs every request in one process, concurrently: without a scope per request,
 * the request id one request appends to a function's logger would show on another request's
 * lines. This opens the InvokeStore the Lambda runtime provides for concurrent invocations and
 * wraps a handler so each call runs in its own invocation scope.
 */
export async function openInvocationScopes(
  env: NodeJS.ProcessEnv,
): Promise<(handler: ProxyHandler) => ProxyHandler> {
  env[maxConcurrencyVariable] ??= localMaxConcurrency;
  const store = await InvokeStore.getInstanceAsync(true);
  return (handler) => (event, context) => store.run({}, () => handler(event, context));
}
