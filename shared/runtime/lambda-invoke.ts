import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';

/** What a synchronous invocation answered: the function's error type, if it failed, and its answer. */
export interface InvocationAnswer {
  readonly functionError: string | undefined;
  readonly text: string;
}

const clients = new Map<string | undefined, LambdaClient>();

/**
 * Invokes functions synchronously (RequestResponse) with a JSON event, through one client.
 * Imported statically, by name: loaded through a dynamic `import()` the client's modules would be
 * bundled whole (every command's schema and the waiters), as esbuild does not tree-shake modules it
 * initializes lazily (figures: docs/benchmarks.md, Cold start).
 */
export function lambdaInvoker(region: string | undefined) {
  // One client per region in a process: a function that invokes for two reasons resolves its
  // credentials once.
  const client = clients.get(region) ?? new LambdaClient({ region });
  clients.set(region, client);
  return async (functionName: string, event: unknown): Promise<InvocationAnswer> => {
    const answer = await client.send(
      new InvokeCommand({
        FunctionName: functionName,
        Payload: new TextEncoder().encode(JSON.stringify(event)),
      }),
    );
    return {
      functionError: answer.FunctionError,
      text: answer.Payload ? new TextDecoder().decode(answer.Payload) : '',
    };
  };
}
