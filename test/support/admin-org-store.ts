import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { type AdminRun, admin, runAdmin } from './admin-cli';

/** A local store of a test file's own, holding one org the operator CLI created. */
export interface AdminOrgStore {
  readonly orgId: string;
  /** Runs `npm run admin -- <args>` (the same entry, without npm) on this store. */
  run(...args: string[]): Promise<AdminRun>;
}

/**
 * Creates the store (a fresh LOCAL_DIR named after `prefix`) and its org named `orgName` before
 * the tests of the describe block it is called in, and removes the directory after them.
 */
export function useAdminOrgStore(prefix: string, orgName: string): AdminOrgStore {
  let dir: string | undefined;
  let orgId: string | undefined;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), prefix));
    orgId = (await admin<{ org_id: string }>(dir, ['create-org', '--name', orgName])).org_id;
  });
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });
  const created = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the store is created by beforeAll: use it inside a test');
    return value;
  };
  return {
    get orgId() {
      return created(orgId);
    },
    run: (...args) => runAdmin(created(dir), args),
  };
}
