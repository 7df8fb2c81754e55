import { randomUUID } from 'node:crypto';
import type { Context } from 'aws-lambda';

/** The Lambda context the local runtime invokes a handler with: a fresh request id per invocation. */
export function localLambdaContext(functionName: string, timeoutMs: number): Context {
  const deadline = Date.now() + timeoutMs;
  const callbacksUnsupported = () => {
    throw new Error('The local runtime runs async handlers only; Lambda callbacks are not supported.');
  };
  return {
    callbackWaitsForEmptyEventLoop: true,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${functionName}`,
    memoryLimitInMB: '1024',
    awsRequestId: randomUUID(),
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: callbacksUnsupported,
    fail: callbacksUnsupported,
    succeed: callbacksUnsupported,
  };
}
