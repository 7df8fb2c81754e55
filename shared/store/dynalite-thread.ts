import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { DynaliteOptions } from 'dynalite';

/** A dynalite engine serving on a free loopback port from its own thread. */
export interface DynaliteThread {
  readonly endpoint: string;
  /** Stops the server, closes the database and ends the thread. */
  close(): Promise<void>;
}

/**
 * The thread's program, in plain JavaScript: a worker runs outside the TypeScript loaders (tsx,
 * vitest) of the thread that starts it. It answers the port it listens on, then closes on any
 * message and ends.
 */
const threadSource = `
const { parentPort, workerData } = require('node:worker_threads');
const server = require(workerData.dynalite)(workerData.options);
server.listen(0, '127.0.0.1', () => parentPort.postMessage(server.address().port));
parentPort.once('message', () =>
  server.close((error) => {
    if (error) throw error;
    parentPort.close();
  }),
);
`;

/**
 * Starts dynalite in a worker thread: its HTTP parsing, validation and LevelDB reads then run on
 * another core than the API that calls it, instead of taking turns with the API on one event loop.
 * An error the engine throws ends the thread and is thrown in this one, as it would be if the
 * engine ran here.
 */
export function startDynaliteThread(options: DynaliteOptions): Promise<DynaliteThread> {
  const worker = new Worker(threadSource, {
    eval: true,
    workerData: { dynalite: createRequire(import.meta.url).resolve('dynalite'), options },
  });
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    const failStart = (error: Error) => reject(error);
    const endedEarly = (code: number) =>
      reject(new Error(`The dynalite thread ended (${code}) before listening`));
    worker.once('error', failStart);
    worker.once('exit', endedEarly);
    worker.once('message', (port: number) => {
      worker.off('error', failStart);
      worker.off('exit', endedEarly);
      resolve({
        endpoint: `http://127.0.0.1:${port}`,
        async close() {
          worker.postMessage('close');
          await exited;
        },
      });
    });
  });
}
