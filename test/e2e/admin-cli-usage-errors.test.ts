import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, type CreatedPartner, runAdmin } from '../support/admin-cli';

/**
 * How the operator CLI answers a mistake, run as a process as an operator types it: one line
 * naming what is wrong, then that command's usage line and where the help is, exit code 2, and
 * never an API key's secret.
 */

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'admin-usage-errors-'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

// As `npm run admin` runs it: the SDK's Node-version warning silenced.
const asNpmRuns = { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' };

const createKeyUsage = 'usage: npm run admin -- create-key --org <org_id> --email <email> --role <role>';

describe('usage mistakes', () => {
  it('names an unknown option, then prints the command usage line and where the help is, exiting 2', async () => {
    // Act
    const run = await runAdmin(dir, ['create-key', '--org', 'o', '--emial', 'a@b.example'], asNpmRuns);

    // Assess
    expect(run.exitCode).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr.trimEnd().split('\n')).toEqual([
      'admin: unknown option --emial for create-key',
      createKeyUsage,
      'see npm run admin -- create-key --help',
    ]);
  });

  it('names a bad value and its allowed ones, with the usage line, not the whole help', async () => {
    // Act
    const [choice, number] = await Promise.all([
      runAdmin(dir, ['create-key', '--org', 'o', '--email', 'a@b.example', '--role', 'owner'], asNpmRuns),
      runAdmin(dir, ['set-org', '--org', 'o', '--max-upfront-cost', 'lots'], asNpmRuns),
    ]);

    // Assess
    expect(choice.exitCode).toBe(2);
    expect(choice.stderr.trimEnd().split('\n')).toEqual([
      'admin: --role must be one of user, admin, support, cloud_rep, restricted_user; got owner',
      createKeyUsage,
      'see npm run admin -- create-key --help',
    ]);
    expect(number.exitCode).toBe(2);
    expect(number.stderr.trimEnd().split('\n')).toEqual([
      'admin: --max-upfront-cost must be dollars (0 or more) or none; got lots',
      'usage: npm run admin -- set-org --org <org_id> [--sharing <scope>] [--renewal-horizon-days <days>] [--max-upfront-cost <usd|none>]',
      'see npm run admin -- set-org --help',
    ]);
  });

  it('refuses an option without its value instead of taking the next option as the value', async () => {
    // Act
    const run = await runAdmin(dir, ['create-org', '--name', '--partner', 'p'], asNpmRuns);

    // Assess
    expect(run.exitCode).toBe(2);
    expect(run.stderr.split('\n')[0]).toBe('admin: --name needs a value: <name>');
  });

  it("prints one command's help on <command> --help, exiting 0", async () => {
    // Act
    const run = await runAdmin(dir, ['revoke-key', '--help'], asNpmRuns);

    // Assess
    expect(run.exitCode).toBe(0);
    expect(run.stdout.split('\n')[0]).toBe('  revoke-key <key_id>');
    expect(run.stdout).not.toContain('create-partner');
  });
});

describe('revoke-key given a whole key', () => {
  it('says to pass the key id, shows it, never echoes the secret, and revokes nothing', async () => {
    // Prepare
    const partner = await admin<CreatedPartner>(dir, ['create-partner', '--name', 'Whole Key']);
    const secret = partner.api_key.slice(`cpk_${partner.key_id}_`.length);

    // Act
    const run = await runAdmin(dir, ['revoke-key', partner.api_key], asNpmRuns);
    const byId = await admin(dir, ['revoke-key', partner.key_id]);

    // Assess
    expect(run.exitCode).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(`(here revoke-key ${partner.key_id})`);
    expect(run.stderr).not.toContain(secret);
    expect(run.stderr.trimEnd().split('\n').slice(1)).toEqual([
      'usage: npm run admin -- revoke-key <key_id>',
      'see npm run admin -- revoke-key --help',
    ]);
    // Still unrevoked until its id was given.
    expect(byId).toEqual({ key_id: partner.key_id, revoked_at: expect.any(String) });
  });
});
