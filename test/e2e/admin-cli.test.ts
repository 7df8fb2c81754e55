import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoOrgName, demoPartnerName } from '../../local/demo-seed';
import { membershipRoles } from '../../shared/domain/orgs';
import { admin, type CreatedKey, type CreatedOrg, type CreatedPartner, runAdmin } from '../support/admin-cli';
import { type ApiResponse, callApi } from '../support/api-client';
import { type LocalServer, startLocalServer } from '../support/local-server';
import { type LocalStoreObserver, observeLocalStore } from '../support/local-store';
import { unique } from '../support/partner-tenants';

/**
 * The operator CLI (`npm run admin`, bin/admin.ts) run as a separate process on the LOCAL_DIR of
 * a running local server, as an operator would beside `npm start`.
 */

let server: LocalServer;
let store: LocalStoreObserver;

beforeAll(async () => {
  server = await startLocalServer({ orgsOnly: true });
  store = await observeLocalStore(server.dir);
});

afterAll(async () => {
  await store?.close();
  await server?.stop();
});

const apiKeyPattern = /^cpk_[0-9A-Za-z]{16}_[0-9A-Za-z]{40}$/;
const commands = [
  'create-partner',
  'create-org',
  'create-key',
  'revoke-key',
  'register-usage-key',
  'list-orgs',
];

function registerCustomer(partner: { org_id: string; api_key: string }, name: string): Promise<ApiResponse> {
  return callApi(server.baseUrl, `/v2/partners/${partner.org_id}/orgs`, {
    method: 'POST',
    apiKey: partner.api_key,
    json: { name },
  });
}

function patchSettings(orgId: string, apiKey: string): Promise<ApiResponse> {
  return callApi(server.baseUrl, `/v2/org/${orgId}/partners`, {
    method: 'PATCH',
    apiKey,
    json: { aws_marketplace_offer_link: 'https://aws.amazon.com/marketplace/pp/prodview-cli' },
  });
}

describe('usage', () => {
  it('prints the usage with every command and role on --help, exiting 0', async () => {
    // Act
    const run = await runAdmin(server.dir, ['--help']);

    // Assess
    expect(run.exitCode).toBe(0);
    for (const command of commands) expect(run.stdout).toContain(command);
    expect(run.stdout).toContain(`roles: ${membershipRoles.join(', ')}`);
  });

  it('exits 2 without a command or with an unknown one', async () => {
    // Act
    const [none, unknown] = await Promise.all([
      runAdmin(server.dir, []),
      runAdmin(server.dir, ['delete-everything']),
    ]);

    // Assess
    expect(none.exitCode).toBe(2);
    expect(none.stdout).toContain('Usage:');
    expect(unknown.exitCode).toBe(2);
    expect(unknown.stderr).toContain('admin: unknown command delete-everything');
    expect(unknown.stdout).toBe('');
  });

  it('exits 2 naming the role when create-key is given one that does not exist, and changes nothing', async () => {
    // Prepare
    const before = await store.snapshot();

    // Act
    const run = await runAdmin(server.dir, [
      'create-key',
      '--org',
      server.credentials.org.org_id,
      '--email',
      'owner@demo-customer.example',
      '--role',
      'owner',
    ]);
    const after = await store.snapshot();

    // Assess
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain(`admin: --role must be one of ${membershipRoles.join(', ')}; got owner`);
    expect(run.stdout).toBe('');
    expect(after).toEqual(before);
  });

  it('exits 1 naming the key when revoke-key is given an unknown key id, and changes nothing', async () => {
    // Prepare
    const before = await store.snapshot();

    // Act
    const run = await runAdmin(server.dir, ['revoke-key', 'NoSuchKey0000000']);
    const after = await store.snapshot();

    // Assess
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toContain('admin: API key NoSuchKey0000000 does not exist');
    expect(run.stdout).toBe('');
    expect(after).toEqual(before);
  });
});

describe('per-key throttling (usage plan keys)', () => {
  it('refuses to create or revoke keys on AWS without USAGE_PLAN_ID, before touching the table', async () => {
    // Prepare: a deployed table that does not exist; the CLI must stop before any AWS call.
    const aws = { TABLE_NAME: 'no-such-table', AWS_REGION: 'eu-west-1' };

    // Act
    const runs = await Promise.all([
      runAdmin(server.dir, ['create-partner', '--name', 'Nowhere'], aws),
      runAdmin(server.dir, ['revoke-key', '0000000000000000'], aws),
    ]);

    // Assess
    for (const run of runs) {
      expect(run.exitCode).toBe(2);
      expect(run.stderr).toContain('USAGE_PLAN_ID is not set');
    }
  });

  it('registers an existing key locally as a no-op, and refuses an unknown or revoked one', async () => {
    // Prepare
    const partner = await admin<CreatedPartner>(server.dir, ['create-partner', '--name', unique('Usage')]);
    const revoked = await admin<CreatedPartner>(server.dir, ['create-partner', '--name', unique('Gone')]);
    await admin(server.dir, ['revoke-key', revoked.key_id]);

    // Act
    const registered = await admin(server.dir, ['register-usage-key', partner.key_id]);
    const refusals = await Promise.all(
      ['0000000000000000', revoked.key_id].map((keyId) =>
        runAdmin(server.dir, ['register-usage-key', keyId]),
      ),
    );

    // Assess
    expect(registered).toEqual({ key_id: partner.key_id, registered: false });
    expect(refusals.map((run) => run.exitCode)).toEqual([2, 2]);
    expect(refusals[1]?.stderr).toContain(`no unrevoked API key ${revoked.key_id}`);
  });
});

describe('commands, while the server runs', () => {
  it('creates a partner whose key registers customer orgs through the API', async () => {
    // Prepare
    const name = unique('CLI Partner');

    // Act
    const partner = await admin<CreatedPartner>(server.dir, ['create-partner', '--name', name]);
    const registration = await registerCustomer(partner, unique('CLI Customer'));

    // Assess
    expect(partner).toEqual({
      org_id: expect.any(String),
      name,
      is_partner: true,
      partner_org_id: null,
      key_id: expect.any(String),
      api_key: expect.stringMatching(apiKeyPattern),
    });
    expect(partner.api_key.startsWith(`cpk_${partner.key_id}_`)).toBe(true);
    expect(registration.status).toBe(200);
  });

  it('creates a child org its partner then manages through the API', async () => {
    // Prepare
    const partner = await admin<CreatedPartner>(server.dir, [
      'create-partner',
      '--name',
      unique('CLI Partner'),
    ]);
    const name = unique('CLI Child');

    // Act
    const org = await admin<CreatedOrg>(server.dir, [
      'create-org',
      '--name',
      name,
      '--partner',
      partner.org_id,
    ]);
    const invite = await callApi(
      server.baseUrl,
      `/v2/partners/${partner.org_id}/orgs/${org.org_id}/invites`,
      {
        method: 'POST',
        apiKey: partner.api_key,
        json: { users: [{ email: 'ops@cli-child.example', role: 'admin' }] },
      },
    );
    const sameName = await registerCustomer(partner, name.toUpperCase());

    // Assess
    expect(org).toEqual({
      org_id: expect.any(String),
      name,
      is_partner: false,
      partner_org_id: partner.org_id,
    });
    expect(invite.status).toBe(200);
    expect(invite.body).toEqual([{ role: 'admin', username: 'ops@cli-child.example' }]);
    expect(sameName.status).toBe(409);
    expect(sameName.body.errors).toEqual({ name: [`already registered as ${org.org_id}`] });
  });

  it('creates a user key that works on the API until revoke-key revokes it', async () => {
    // Prepare
    const orgId = server.credentials.org.org_id;
    const email = `${randomUUID().slice(0, 8)}@demo-customer.example`;

    // Act
    const key = await admin<CreatedKey>(server.dir, [
      'create-key',
      '--org',
      orgId,
      '--email',
      email.toUpperCase(),
      '--role',
      'admin',
    ]);
    const beforeRevocation = await patchSettings(orgId, key.api_key);
    const revocation = await admin(server.dir, ['revoke-key', key.key_id]);
    const afterRevocation = await patchSettings(orgId, key.api_key);

    // Assess
    expect(key).toEqual({
      org_id: orgId,
      email,
      role: 'admin',
      key_id: expect.any(String),
      api_key: expect.stringMatching(apiKeyPattern),
    });
    expect(beforeRevocation.status).toBe(200);
    expect(revocation).toEqual({
      key_id: key.key_id,
      revoked_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
    });
    expect(afterRevocation.status).toBe(401);
  });

  it('lists every org, those registered through the API included', async () => {
    // Prepare
    const { partner } = server.credentials;
    const name = unique('API Customer');
    const registration = await registerCustomer(partner, name);

    // Act
    const { orgs } = await admin<{ orgs: CreatedOrg[] }>(server.dir, ['list-orgs']);

    // Assess
    expect(registration.status).toBe(200);
    expect(orgs).toEqual(
      expect.arrayContaining([
        { org_id: partner.org_id, name: demoPartnerName, is_partner: true, partner_org_id: null },
        {
          org_id: server.credentials.org.org_id,
          name: demoOrgName,
          is_partner: false,
          partner_org_id: partner.org_id,
        },
        { org_id: registration.body.id, name, is_partner: false, partner_org_id: partner.org_id },
      ]),
    );
  });
});
