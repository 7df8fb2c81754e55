import { afterAll, beforeAll } from 'vitest';
import { startTestTable, type TestTable } from './dynalite';

/**
 * A dynalite table of the describe block it is called in: started before its tests, closed after
 * them. Read it inside a test (before the start it throws, naming why).
 */
export function useTestTable(): TestTable {
  let started: TestTable | undefined;
  beforeAll(async () => {
    started = await startTestTable();
  });
  afterAll(async () => {
    await started?.close();
  });
  return new Proxy({} as TestTable, {
    get(_target, name) {
      if (!started) throw new Error('the table is started by beforeAll: use it inside a test');
      return Reflect.get(started, name);
    },
  });
}
