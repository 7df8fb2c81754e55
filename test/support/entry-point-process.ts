import { type ChildProcess, type SpawnOptions, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The repository's root: entry points run from there, as `npm start` and `npm run admin` do. */
export const repositoryRoot = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Runs a TypeScript entry point under `bin/` in one node process with tsx's loader. `npx tsx`
 * would put a process in between that does not pass SIGTERM on, leaving the server running.
 * TABLE_NAME is dropped from the environment: it would point the admin CLI at a deployed table.
 */
export function spawnEntryPoint(
  entryPoint: string,
  args: readonly string[],
  env: Readonly<Record<string, string>>,
  options: Pick<SpawnOptions, 'timeout'> = {},
): ChildProcess {
  const { TABLE_NAME: _deployedTable, ...inherited } = process.env;
  return spawn(process.execPath, ['--import', 'tsx', entryPoint, ...args], {
    ...options,
    cwd: repositoryRoot,
    env: { ...inherited, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** Collects what a child process writes on one stream, as text. */
export function collectText(stream: NodeJS.ReadableStream | null): () => string {
  const chunks: string[] = [];
  stream?.setEncoding('utf8');
  stream?.on('data', (chunk: string) => chunks.push(chunk));
  return () => chunks.join('');
}
