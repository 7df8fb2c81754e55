import type { TableClient } from '../../shared/store/table-client';

/** How many requests a DynamoDB client sent, in all and per command. */
export interface StorageCallCounter {
  /** Requests sent so far (retries of one command by the SDK count once). */
  readonly total: number;
  /** Requests sent so far per command name, e.g. `GetItemCommand`. */
  byCommand(): Readonly<Record<string, number>>;
}

/**
 * Counts every command the table's clients send from now on, so that tests and benchmarks can
 * report the storage calls a request costs (docs/plans-api.md): read `total` before and after
 * requests sent one at a time.
 */
export function countStorageCalls(table: Pick<TableClient, 'client'>): StorageCallCounter {
  const counts = new Map<string, number>();
  let total = 0;
  const count =
    <Args, Result>(next: (args: Args) => Promise<Result>, context: { commandName?: string }) =>
    async (args: Args) => {
      const command = context.commandName ?? 'unknown';
      total += 1;
      counts.set(command, (counts.get(command) ?? 0) + 1);
      return next(args);
    };
  table.client.middlewareStack.add(count, { step: 'initialize' });
  return {
    get total() {
      return total;
    },
    byCommand: () => Object.fromEntries(counts),
  };
}
