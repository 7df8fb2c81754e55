import { InvokeStore } from '@aws/lambda-invoke-store';
import type { Context } from 'aws-lambda';

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
/** Wraps a handler so that each call runs in an invocation scope of its own. */
export type InvocationScoped = <Event, Result>(
  handler: (event: Event, context: Context) => Promise<Result>,
) => (event: Event, context: Context) => Promise<Result>;

export async function openInvocationScopes(env: NodeJS.ProcessEnv): Promise<InvocationScoped> {
  env[maxConcurrencyVariable] ??= localMaxConcurrency;
  const store = await InvokeStore.getInstanceAsync(true);
  // The process keeps the first store anyone asked for. The AWS SDK asks on its first request
  // (for the X-Ray trace id); asked before the variable was set, it made the single-invocation
  // store, whose `run` swaps one global context (it outlives the run, as the probe shows): every
  // request would then share, and overwrite, the others' scope (the batch processor's records).
  const probe = {};
  store.run(probe, () => undefined);
  if (store.getContext() === probe) {
    throw new Error(
      'The InvokeStore was created for one invocation at a time: open invocation scopes before any AWS SDK call',
    );
  }
  return (handler) => (event, context) => store.run({}, () => handler(event, context));
}
