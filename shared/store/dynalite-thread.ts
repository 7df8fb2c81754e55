import { createRequire } from 'node:module';
import { MessageChannel, type MessagePort, Worker } from 'node:worker_threads';
import type { DynamoDBClientConfig } from '@aws-sdk/client-dynamodb';
import type { DynaliteOptions } from 'dynalite';

/** What the SDK sends requests through (its `requestHandler`), the kind that is an object with `handle`. */
export type EngineRequestHandler = Extract<
  NonNullable<DynamoDBClientConfig['requestHandler']>,
  { handle: unknown }
>;

/** A dynalite engine running in its own thread. */
export interface DynaliteThread {
  /** Where other processes reach it: a free loopback port. */
  readonly endpoint: string;
  /** How this process reaches it, without HTTP: through a message port to the thread. */
  readonly requestHandler: EngineRequestHandler;
  /** Stops the server, closes the database and ends the thread. */
  close(): Promise<void>;
}

/** The part of the SDK's HTTP request a call to the engine carries (DynamoDB's JSON protocol posts to `/`, no query). */
interface SentRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body?: string | Uint8Array;
}

interface EngineCall {
  readonly id: number;
  readonly method: string;
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly body: string | Uint8Array;
}

interface EngineAnswer {
  readonly id: number;
  readonly statusCode: number;
  readonly headers: Record<string, string>;
  readonly body: Uint8Array;
}

/**
 * The thread's program, in plain JavaScript: a worker runs outside the TypeScript loaders (tsx,
 * vitest) of the thread that starts it. dynalite serves other processes over HTTP; calls from the
 * starting thread come as messages and go to dynalite's own request handler through stand-ins for
 * Node's request and response, with the parts of them dynalite uses: method, url, headers, the
 * body as one `data` event, `setHeader`, `statusCode` and `end`. It answers the port it listens on,
 * then closes on any message on `parentPort` and ends.
 */
const threadSource = `
const { EventEmitter } = require('node:events');
const { parentPort, workerData } = require('node:worker_threads');
const { calls } = workerData;
const encoder = new TextEncoder();
const server = require(workerData.dynalite)(workerData.options);
const handleRequest = server.listeners('request')[0];
calls.on('message', ({ id, method, url, headers, body }) => {
  const request = Object.assign(new EventEmitter(), { method, url, headers });
  const response = {
    statusCode: 200,
    headers: {},
    setHeader(name, value) {
      this.headers[name.toLowerCase()] = String(value);
    },
    end(text = '') {
      // Bytes of their own, moved rather than copied (a Buffer may be a view of an 8 KB pool).
      const body = encoder.encode(text);
      calls.postMessage({ id, statusCode: this.statusCode, headers: this.headers, body }, [body.buffer]);
    },
  };
  handleRequest(request, response);
  request.emit('data', Buffer.from(body));
  request.emit('end');
});
server.listen(0, '127.0.0.1', () => parentPort.postMessage(server.address().port));
parentPort.once('message', () =>
  server.close((error) => {
    if (error) throw error;
    calls.close();
    parentPort.close();
  }),
);
`;

/**
 * Starts dynalite in a worker thread: its request parsing, validation and LevelDB reads then run
 * on another core than the API that calls it, and the API's own calls skip HTTP on both sides
 * (`requestHandler`). An error the engine throws ends the thread and is thrown in this one, as it
 * would be if the engine ran here.
 */
export function startDynaliteThread(options: DynaliteOptions): Promise<DynaliteThread> {
  const { port1: calls, port2: threadCalls } = new MessageChannel();
  const worker = new Worker(threadSource, {
    eval: true,
    workerData: { dynalite: createRequire(import.meta.url).resolve('dynalite'), options, calls: threadCalls },
    transferList: [threadCalls],
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
        requestHandler: portRequestHandler(calls, exited),
        async close() {
          worker.postMessage('close');
          await exited;
        },
      });
    });
  });
}

/** Sends the SDK's requests as messages on `calls` and answers their answers; refuses them once the thread ended. */
function portRequestHandler(calls: MessagePort, exited: Promise<void>): EngineRequestHandler {
  const waiting = new Map<number, { resolve(answer: EngineAnswer): void; reject(error: Error): void }>();
  let nextId = 0;
  let ended = false;
  calls.on('message', (answer: EngineAnswer) => {
    waiting.get(answer.id)?.resolve(answer);
    waiting.delete(answer.id);
  });
  void exited.then(() => {
    ended = true;
    for (const call of waiting.values()) call.reject(new Error('The local DynamoDB engine stopped'));
    waiting.clear();
  });
  const handler = {
    async handle(request: SentRequest) {
      if (ended) throw new Error('The local DynamoDB engine stopped');
      // Node hands a server lower-cased header names; dynalite reads them so.
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(request.headers)) headers[name.toLowerCase()] = value;
      // The SDK's body is a view of an 8 KB buffer, which a message would copy whole: its own
      // bytes instead, moved rather than copied.
      const body = typeof request.body === 'string' ? request.body : new Uint8Array(request.body ?? []);
      const call: EngineCall = { id: nextId++, method: request.method, url: request.path, headers, body };
      const answer = await new Promise<EngineAnswer>((resolve, reject) => {
        waiting.set(call.id, { resolve, reject });
        calls.postMessage(call, typeof body === 'string' ? [] : [body.buffer]);
      });
      return { response: { statusCode: answer.statusCode, headers: answer.headers, body: answer.body } };
    },
    // Nothing to configure: no sockets, no timeouts.
    updateHttpClientConfig: () => {},
    httpHandlerConfigs: () => ({}),
  };
  return handler;
}
