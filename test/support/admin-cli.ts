import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { collectText, spawnNode } from './entry-point-process';

/** How one run of the operator CLI (`npm run admin`: bin/run-admin.mjs) ended. */
export interface AdminRun {
  readonly exitCode: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Starts the operator CLI as `npm run admin` does (its bundle, built on the first call after a
 * source changed) on the local store under `dir` (the LOCAL_DIR of a local server), with `env`
 * added to its environment (TABLE_NAME dropped: spawnNode). The test waits for the command's end,
 * not for a time: a hung one is killed with the tests.
 */
export function spawnAdmin(
  dir: string,
  args: readonly string[],
  env: Readonly<Record<string, string>> = {},
): ChildProcess {
  return spawnNode(['bin/run-admin.mjs', ...args], { ...env, LOCAL_DIR: dir });
}

/** Runs the operator CLI (spawnAdmin) to its end. */
export async function runAdmin(
  dir: string,
  args: readonly string[],
  env: Readonly<Record<string, string>> = {},
): Promise<AdminRun> {
  const child = spawnAdmin(dir, args, env);
  const stdout = collectText(child.stdout);
  const stderr = collectText(child.stderr);
  const [exitCode] = (await once(child, 'close')) as [number | null];
  return { exitCode, stdout: stdout(), stderr: stderr() };
}

/**
 * Runs a CLI command that must succeed and answers what it printed, which must be one JSON object
 * on one line (the CLI's contract: scripts read its output line by line).
 */
export async function admin<T extends object = Record<string, unknown>>(
  dir: string,
  args: readonly string[],
): Promise<T> {
  const run = await runAdmin(dir, args);
  if (run.exitCode !== 0) {
    throw new Error(`admin ${args.join(' ')} exited with ${run.exitCode}:\n${run.stderr}`);
  }
  const printed: unknown = /^[^\n]+\n$/.test(run.stdout) ? JSON.parse(run.stdout) : undefined;
  if (typeof printed !== 'object' || printed === null || Array.isArray(printed)) {
    throw new Error(`admin ${args.join(' ')} did not print one JSON object on one line:\n${run.stdout}`);
  }
  return printed as T;
}

/** What `create-partner` prints. */
export interface CreatedPartner {
  readonly org_id: string;
  readonly name: string;
  readonly is_partner: boolean;
  readonly partner_org_id: string | null;
  readonly key_id: string;
  readonly api_key: string;
}

/** What `create-org` prints (also each entry of `list-orgs`). */
export interface CreatedOrg {
  readonly org_id: string;
  readonly name: string;
  readonly is_partner: boolean;
  readonly partner_org_id: string | null;
}

/** What `create-key` prints. */
export interface CreatedKey {
  readonly org_id: string;
  readonly email: string;
  readonly role: string;
  readonly key_id: string;
  readonly api_key: string;
}
