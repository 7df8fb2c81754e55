import { describe, expect, it } from 'vitest';
import { askSharedServer, type SharedServer, startServerBroker } from '../../support/server-broker';

/**
 * The run's server broker (test/support/server-broker.ts, docs/testing.md): a shared server
 * starts on the first ask and only once, whoever asks; a failed start is each asker's error; the
 * end of the run stops what started.
 */

/**
 * A start that counts its calls and its stops, says when it was first called (`called`), and ends
 * every start when `finish` is called.
 */
function countedStart() {
  const counts = { starts: 0, stops: 0 };
  const pending: ((value: SharedServer<unknown>) => void)[] = [];
  let markCalled: () => void = () => undefined;
  const called = new Promise<void>((resolve) => {
    markCalled = resolve;
  });
  const start = () => {
    counts.starts += 1;
    markCalled();
    return new Promise<SharedServer<unknown>>((resolve) => {
      pending.push(resolve);
    });
  };
  const server = (value: unknown): SharedServer<unknown> => ({
    value,
    stop: async () => {
      counts.stops += 1;
    },
  });
  const finish = (value: unknown) => {
    for (const resolve of pending.splice(0)) resolve(server(value));
  };
  return { counts, called, start, finish };
}

describe('the server broker', () => {
  it('starts nothing until asked, then one start for every concurrent and later ask, stopped at the end', async () => {
    // Prepare
    const shared = countedStart();
    const broker = await startServerBroker({ planned: shared.start });
    const startsBeforeAsking = shared.counts.starts;

    // Act
    const concurrent = [askSharedServer(broker.url, 'planned'), askSharedServer(broker.url, 'planned')];
    await shared.called;
    shared.finish({ baseUrl: 'http://127.0.0.1:1' });
    const answers = await Promise.all(concurrent);
    const later = await askSharedServer(broker.url, 'planned');
    await broker.close();

    // Assess
    expect(startsBeforeAsking).toBe(0);
    expect(answers).toEqual([{ baseUrl: 'http://127.0.0.1:1' }, { baseUrl: 'http://127.0.0.1:1' }]);
    expect(later).toEqual({ baseUrl: 'http://127.0.0.1:1' });
    expect(shared.counts).toEqual({ starts: 1, stops: 1 });
  });

  it('answers a failed start to each asker with its reason, and an unknown name as unknown', async () => {
    // Prepare
    const broker = await startServerBroker({
      broken: () => Promise.reject(new Error('the server exited before listening')),
    });

    // Act
    const failed = await askSharedServer(broker.url, 'broken').catch((error: Error) => error.message);
    const unknown = await askSharedServer(broker.url, 'nope').catch((error: Error) => error.message);
    const withoutBroker = await askSharedServer(undefined, 'broken').catch((error: Error) => error.message);
    await broker.close();

    // Assess
    expect(failed).toBe('The shared server broken did not start: the server exited before listening');
    expect(unknown).toBe('No shared server is named nope');
    expect(withoutBroker).toContain('test/support/shared-servers.global.ts');
  });
});
