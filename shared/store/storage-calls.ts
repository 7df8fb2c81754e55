import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

/** How many requests a DynamoDB client sent, in all and per command. */
export interface StorageCallCounter {
  /** Requests sent so far (retries of one command by the SDK count once). */
  readonly total: number;
  /** Requests sent so far per command name, e.g. `GetItemCommand`. */
  byCommand(): Readonly<Record<string, number>>;
}

/**
 * Counts every command the client sends from now on, so that tests and benchmarks can report
 * the storage calls a request costs (docs/plans-api.md): read `total` before and after requests
 * sent one at a time.
 */
export function countStorageCalls(client: DynamoDBDocumentClient): StorageCallCounter {
  const counts = new Map<string, number>();
  let total = 0;
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const command = context.commandName ?? 'unknown';
      total += 1;
      counts.set(command, (counts.get(command) ?? 0) + 1);
      return next(args);
    },
    { step: 'initialize' },
  );
  return {
    get total() {
      return total;
    },
    byCommand: () => Object.fromEntries(counts),
  };
}
