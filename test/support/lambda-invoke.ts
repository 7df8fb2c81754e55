import { InvokeCommand, type LambdaClient } from '@aws-sdk/client-lambda';
import type { Context } from 'aws-lambda';
import type { AwsClientStub } from 'aws-sdk-client-mock';

/**
 * Answers the stubbed Lambda client's Invoke as Lambda does: `handler`'s result as JSON, or its
 * error with FunctionError set (the function's answer is serialized as on AWS).
 */
export function invokeAnsweredBy(
  lambda: AwsClientStub<LambdaClient>,
  handler: (event: unknown, context: Context) => Promise<unknown>,
  context: Context,
): void {
  lambda.on(InvokeCommand).callsFake(async (input: { Payload: Uint8Array }) => {
    const event: unknown = JSON.parse(new TextDecoder().decode(input.Payload));
    try {
      const result = await handler(event, context);
      return { StatusCode: 200, Payload: new TextEncoder().encode(JSON.stringify(result)) };
    } catch (error) {
      const { name, message } = error as Error;
      const payload = JSON.stringify({ errorType: name, errorMessage: message });
      return { StatusCode: 200, FunctionError: 'Unhandled', Payload: new TextEncoder().encode(payload) };
    }
  });
}
