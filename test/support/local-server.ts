import type { ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DemoCredentials } from '../../local/demo-seed';
import { collectText, spawnLocalServer } from './entry-point-process';

/**
 * The real local server (`bin/serve.ts`, what `npm start` runs, from its bundle: spawnLocalServer)
 * on a free port and a fresh directory.
 */
export interface LocalServer {
  readonly baseUrl: string;
  /** The demo the first start seeded, as written to `<dir>/credentials.json`. */
  readonly credentials: DemoCredentials;
  /** The server's LOCAL_DIR: a fresh temporary directory (or the one asked for), removed by `stop`. */
  readonly dir: string;
  /** Everything the server printed so far, stdout and stderr, for failure messages. */
  output(): string;
  /**
   * Stops the server with SIGTERM, waits for it to exit (however long that takes: a hung one is
   * killed with the tests) and removes its directory. Rejects when it does not exit cleanly.
   */
  stop(): Promise<void>;
}

export interface LocalServerOptions {
  /** Seed the demo orgs and keys only (`--orgs-only`): no usage, no plans, a small table. */
  readonly orgsOnly?: boolean;
  /** The LOCAL_DIR to use, not existing yet (the README's test names it `.local`); by default a fresh one. */
  readonly dir?: string;
  /**
   * Each API key's rate and burst. By default, limits no test reaches: the suites send requests
   * back to back with one key, far faster than a tenant's default rate.
   */
  readonly tenantThrottle?: { readonly rateLimit: number; readonly burstLimit: number };
}

const unreachedThrottle = { rateLimit: 1_000_000, burstLimit: 1_000_000 };

const listeningLine = /listening on (http:\/\/\S+)/;

export async function startLocalServer(options: LocalServerOptions = {}): Promise<LocalServer> {
  const { orgsOnly = false, tenantThrottle = unreachedThrottle } = options;
  const dir = options.dir ?? (await mkdtemp(join(tmpdir(), 'e2e-local-server-')));
  const child = spawnLocalServer(orgsOnly ? ['--orgs-only'] : [], {
    PORT: '0',
    HOST: '127.0.0.1',
    LOCAL_DIR: dir,
    TENANT_RATE_LIMIT: String(tenantThrottle.rateLimit),
    TENANT_BURST_LIMIT: String(tenantThrottle.burstLimit),
  });
  const stdout = collectText(child.stdout);
  const stderr = collectText(child.stderr);
  const output = () => `--- stdout\n${stdout()}\n--- stderr\n${stderr()}`;
  const exited = exitOf(child);

  const shutDown = async () => {
    const exit = await terminate(child, exited);
    await rm(dir, { recursive: true, force: true });
    return exit;
  };
  const stop = async () => {
    const exit = await shutDown();
    if (exit.code !== 0) {
      throw new Error(`The local server did not exit cleanly (${describeExit(exit)})\n${output()}`);
    }
  };

  try {
    await waitForListening(child, exited);
    const credentials = JSON.parse(await readFile(join(dir, 'credentials.json'), 'utf8')) as DemoCredentials;
    return { baseUrl: credentials.base_url, credentials, dir, output, stop };
  } catch (error) {
    await shutDown();
    throw new Error(`${(error as Error).message}\n${output()}`);
  }
}

interface Exit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

function exitOf(child: ChildProcess): Promise<Exit> {
  return new Promise((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
    // A process that could not be spawned emits `error` and no `exit`.
    child.once('error', () => resolve({ code: null, signal: null }));
  });
}

/** SIGTERM, then waits for the process to exit; answers how it exited. */
async function terminate(child: ChildProcess, exited: Promise<Exit>): Promise<Exit> {
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  return exited;
}

function describeExit(exit: Exit): string {
  return exit.signal ? `signal ${exit.signal}` : `exit code ${exit.code}`;
}

/**
 * Resolves on the server's "listening on" line; rejects at once when the server exits first. No
 * time limit: a slow start on a loaded machine is not a failure (docs/testing.md).
 */
function waitForListening(child: ChildProcess, exited: Promise<Exit>): Promise<void> {
  return new Promise((resolve, reject) => {
    let printed = '';
    const onData = (chunk: Buffer | string) => {
      printed += chunk.toString();
      if (listeningLine.test(printed)) finish();
    };
    function finish(error?: Error) {
      child.stdout?.off('data', onData);
      if (error) reject(error);
      else resolve();
    }
    child.stdout?.on('data', onData);
    void exited.then((exit) =>
      finish(new Error(`The local server exited before listening (${describeExit(exit)})`)),
    );
  });
}
