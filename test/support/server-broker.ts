import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A server shared by every test file of a vitest run: started on the first file's ask, stopped
 * when the run ends. `value` is what the files read of it (plain JSON: it crosses from the main
 * process to the workers).
 */
export interface SharedServer<T> {
  readonly value: T;
  stop(): Promise<void>;
}

/** How to start each shared server, by name. */
export type SharedServerStarts = Readonly<Record<string, () => Promise<SharedServer<unknown>>>>;

/** The broker the run's global set-up starts in vitest's main process (test/support/shared-servers.global.ts). */
export interface ServerBroker {
  /** Where test files ask for a shared server (askSharedServer). */
  readonly url: string;
  /** Stops every shared server started, then the broker. */
  close(): Promise<void>;
}

/**
 * Starts the broker: a loopback HTTP server answering `GET /<name>` with the shared server's
 * value, starting that server on the first ask (later and concurrent asks wait for the same
 * start). A run whose files ask for none starts none.
 */
export async function startServerBroker(starts: SharedServerStarts): Promise<ServerBroker> {
  const started = new Map<string, Promise<SharedServer<unknown>>>();
  const broker = createServer((incoming, answer) => {
    const name = decodeURIComponent((incoming.url ?? '/').slice(1));
    const start = Object.hasOwn(starts, name) ? starts[name] : undefined;
    if (!start) {
      answer.writeHead(404, { 'content-type': 'text/plain' }).end(`No shared server is named ${name}`);
      return;
    }
    if (!started.has(name)) started.set(name, start());
    (started.get(name) as Promise<SharedServer<unknown>>).then(
      (shared) =>
        answer.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(shared.value)),
      (error: unknown) =>
        answer
          .writeHead(500, { 'content-type': 'text/plain' })
          .end(`The shared server ${name} did not start: ${(error as Error).message}`),
    );
  });
  await new Promise<void>((resolve) => broker.listen(0, '127.0.0.1', resolve));
  const { port } = broker.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    async close() {
      const stops = [...started.values()].map(async (starting) => {
        const shared = await starting.catch(() => undefined);
        await shared?.stop();
      });
      await Promise.all(stops);
      await new Promise((resolve) => broker.close(resolve));
    },
  };
}

/**
 * Asks the broker at `brokerUrl` for the shared server `name` and answers its value, however long
 * its start takes (no time limit: a slow start on a loaded machine is not a failure,
 * docs/testing.md). Plain node:http, which sets no time limit of its own, where fetch would.
 */
export function askSharedServer<T>(brokerUrl: string | undefined, name: string): Promise<T> {
  if (!brokerUrl) {
    const setup = 'test/support/shared-servers.global.ts';
    return Promise.reject(new Error(`No server broker: vitest's globalSetup must list ${setup}`));
  }
  return new Promise((resolve, reject) => {
    const asked = request(`${brokerUrl}/${encodeURIComponent(name)}`, (answer) => {
      const chunks: Buffer[] = [];
      answer.on('data', (chunk: Buffer) => chunks.push(chunk));
      answer.on('error', reject);
      answer.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        if (answer.statusCode === 200) resolve(JSON.parse(text) as T);
        else reject(new Error(text));
      });
    });
    asked.on('error', reject);
    asked.end();
  });
}
