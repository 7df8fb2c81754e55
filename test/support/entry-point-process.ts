import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The repository's root: entry points run from there, as `npm start` and `npm run admin` do. */
export const repositoryRoot = fileURLToPath(new URL('../..', import.meta.url));

const running = new Set<ChildProcess>();
let killOnExit = false;

/**
 * Kills `child` if it is still running when the test process exits. Tests wait for a process's end,
 * never for a time (docs/testing.md), so a hung one is ended by vitest's hang detector stopping
 * the test file: it must not be left behind.
 */
export function endedWithTheTests(child: ChildProcess): ChildProcess {
  running.add(child);
  child.once('exit', () => running.delete(child));
  if (!killOnExit) {
    killOnExit = true;
    process.once('exit', () => {
      for (const left of running) left.kill('SIGKILL');
    });
  }
  return child;
}

/**
 * Runs `node <nodeArgs>` from the repository's root, as one process the test can signal, with
 * `env` added to the test's environment. TABLE_NAME is dropped from it: it would point the local
 * server or the admin CLI at a deployed table.
 */
export function spawnNode(nodeArgs: readonly string[], env: Readonly<Record<string, string>>): ChildProcess {
  const { TABLE_NAME: _deployedTable, ...inherited } = process.env;
  return endedWithTheTests(
    spawn(process.execPath, nodeArgs, {
      cwd: repositoryRoot,
      env: { ...inherited, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
}

/**
 * Runs a TypeScript entry point under `bin/` with tsx's loader, in one node process: `npx tsx`
 * would put a process in between that does not pass SIGTERM on, leaving the server running.
 */
export function spawnEntryPoint(
  entryPoint: string,
  args: readonly string[],
  env: Readonly<Record<string, string>>,
): ChildProcess {
  return spawnNode(['--import', 'tsx', entryPoint, ...args], env);
}

/**
 * Runs the local server (bin/serve.ts, what `npm start` runs with tsx) from its bundle through
 * bin/run-serve.mjs: the same server, without transpiling every source at each start.
 */
export function spawnLocalServer(
  args: readonly string[],
  env: Readonly<Record<string, string>>,
): ChildProcess {
  return spawnNode(['bin/run-serve.mjs', ...args], env);
}

/** Collects what a child process writes on one stream, as text. */
export function collectText(stream: NodeJS.ReadableStream | null): () => string {
  const chunks: string[] = [];
  stream?.setEncoding('utf8');
  stream?.on('data', (chunk: string) => chunks.push(chunk));
  return () => chunks.join('');
}
