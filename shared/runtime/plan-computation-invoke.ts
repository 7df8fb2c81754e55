import { configuredRegion } from './aws';
import { lambdaInvoker } from './lambda-invoke';

/**
 * Sends the plan-computation function (`PLAN_COMPUTATION_FUNCTION`) a request, synchronously, and
 * answers the JSON it returned. Its failure, and an answer that is not JSON, are thrown as
 * `fail(reason)` makes them: each caller names what it asked for and checks the answer's shape.
 * The Lambda client is created with the first request.
 */
export function planComputationInvoker(env: NodeJS.ProcessEnv, asksFor: string) {
  const functionName = env.PLAN_COMPUTATION_FUNCTION;
  if (!functionName) {
    throw new Error(`PLAN_COMPUTATION_FUNCTION is not set: the function that answers ${asksFor}`);
  }
  let invoke: ReturnType<typeof lambdaInvoker> | undefined;
  return async (request: unknown, fail: (reason: string) => Error): Promise<unknown> => {
    invoke ??= lambdaInvoker(configuredRegion(env));
    const { functionError, text } = await invoke(functionName, request);
    if (functionError) throw fail(`failed: ${text}`);
    try {
      return JSON.parse(text);
    } catch {
      throw fail(`answered no JSON: ${text.slice(0, 200)}`);
    }
  };
}
